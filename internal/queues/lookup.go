// Package queues holds the queue rules that do not depend on HTTP: finding
// a company's queues (and its default queue), creating the default queue
// at start-up and queue metrics. (Giving tasks back their status when
// they leave a queue unrun is the tasks domain's: tasks.Revert.)
package queues

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// DefaultTag is the system tag of a company's default queue.
const DefaultTag = "default"

// DefaultName is the name of the queue created for a company without one.
const DefaultName = "default"

// Get loads a queue of the company (queues are never public); an unknown
// id is 400/701.
func Get(ctx context.Context, db *store.DB, q store.Querier, company, id string) (*store.Queue, error) {
	qu, err := db.Queues().Get(ctx, q, id, company)
	if err != nil {
		return nil, domain.NotFound(err, apierr.InvalidQueueID(id))
	}
	Normalize(qu)
	return qu, nil
}

// GetForUpdate is Get inside a write transaction, locking the queue's row.
func GetForUpdate(ctx context.Context, db *store.DB, q store.Querier, company, id string) (*store.Queue, error) {
	qu, err := db.Queues().GetForUpdate(ctx, q, id, company)
	if err != nil {
		return nil, domain.NotFound(err, apierr.InvalidQueueID(id))
	}
	Normalize(qu)
	return qu, nil
}

// Default finds the company's default queue: the one queue with the
// system tag "default" (none is 400/707, several 400/708 naming them).
// It is the only default-queue lookup (queues.get_default, tasks.enqueue).
func Default(ctx context.Context, db *store.DB, q store.Querier, company string) (*store.Queue, error) {
	list, err := db.QueuesTagged(ctx, q, company, DefaultTag)
	if err != nil {
		return nil, err
	}
	switch len(list) {
	case 0:
		return nil, apierr.NoDefaultQueue()
	case 1:
		Normalize(list[0])
		return list[0], nil
	}
	ids := make([]string, len(list))
	for i, qu := range list {
		ids[i] = qu.ID
	}
	return nil, apierr.MultipleDefaultQueues().With("queues", ids)
}

// Normalize fills the empty lists and maps every queue returns.
func Normalize(qu *store.Queue) {
	if qu.Tags == nil {
		qu.Tags = []string{}
	}
	if qu.SystemTags == nil {
		qu.SystemTags = []string{}
	}
	if qu.Metadata == nil {
		qu.Metadata = map[string]*store.MetadataItem{}
	}
}

// OfTask finds the queue a task waits in (queues.get_by_task_id): the
// task's execution queue when it waits there, else the first of the
// queues holding it; nil when it waits in none.
func OfTask(ctx context.Context, d *domain.Env, company string, task *store.Task) (*store.Queue, error) {
	ids, err := d.DB.QueuesHoldingTask(ctx, d.DB.Read(), task.ID)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	id := ids[0]
	for _, q := range ids {
		if q == task.Execution.Queue {
			id = q
		}
	}
	qu, err := Get(ctx, d.DB, d.DB.Read(), company, id)
	if err != nil {
		// Deleted between the two reads: it holds the task no longer.
		return nil, nil
	}
	return qu, nil
}
