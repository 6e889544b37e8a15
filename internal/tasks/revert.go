package tasks

import (
	"context"
	"errors"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// Revert gives tasks that left a queue without being run (the queue was
// deleted or cleared, or the entry removed with update_task_status) their
// status before the enqueue (created when unknown), and clears their
// execution queue. Only tasks of the company whose execution queue is this
// queue change; the ids of those are returned. Call it in the transaction
// that removed the entries.
func Revert(ctx context.Context, d *domain.Env, q store.Querier, company, user, queueID string, taskIDs []string, reason string) ([]string, error) {
	changed := []string{}
	for _, id := range taskIDs {
		t, err := d.DB.Tasks().GetForUpdate(ctx, q, id, company)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if t.Execution.Queue != queueID {
			continue
		}
		t.Normalize()
		to := t.EnqueueStatus
		if to == "" || to == Queued {
			to = Created
		}
		_, err = SetStatus(ctx, d, q, user, t, Change{To: to, Force: true, StatusReason: reason,
			Apply: func(t *store.Task, _ map[string]any) {
				t.EnqueueStatus = ""
				t.Execution.Queue = ""
			}})
		if err != nil {
			if apierr.As(err) != nil {
				continue // lost a race with another status change: leave it
			}
			return nil, err
		}
		changed = append(changed, id)
	}
	return changed, nil
}
