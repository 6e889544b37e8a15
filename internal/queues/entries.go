package queues

import (
	"context"
	"errors"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// WithEntries loads a queue of the company with its first max entries
// (<= 0: all).
func WithEntries(ctx context.Context, d *domain.Env, company, id string, max int) (*store.Queue, []store.QueueEntry, error) {
	qu, err := Get(ctx, d.DB, d.DB.Read(), company, id)
	if err != nil {
		return nil, nil, err
	}
	entries, err := d.DB.QueueEntries(ctx, d.DB.Read(), qu.ID, max)
	if err != nil {
		return nil, nil, err
	}
	return qu, entries, nil
}

// AddTask appends a task of the company to the queue (400/712 when it is
// already in it). The task's status does not change (tasks.enqueue is the
// operation that queues a task); setExecutionQueue also points the task's
// execution queue at this queue.
func AddTask(ctx context.Context, d *domain.Env, company, queueID, taskID string, setExecutionQueue bool) error {
	return d.DB.Tx(ctx, func(q store.Querier) error {
		if _, err := Get(ctx, d.DB, q, company, queueID); err != nil {
			return err
		}
		// Lock the task before the queue, the lock order of tasks.enqueue.
		t, err := d.DB.Tasks().GetForUpdate(ctx, q, taskID, company)
		if err != nil {
			return domain.NotFound(err, apierr.InvalidTaskID(taskID))
		}
		if err := d.DB.AddQueueEntry(ctx, q, queueID, t.ID, d.Now().UnixMilli()); err != nil {
			if errors.Is(err, store.ErrAlreadyQueued) {
				return apierr.TaskAlreadyQueued(t.ID)
			}
			return err
		}
		if !setExecutionQueue {
			return nil
		}
		t.Normalize()
		t.Execution.Queue = queueID
		return d.DB.Tasks().Update(ctx, q, t)
	})
}

// Peek returns the task at the top of a queue of the company ("" when empty).
func Peek(ctx context.Context, d *domain.Env, company, queueID string) (string, error) {
	_, top, err := WithEntries(ctx, d, company, queueID, 1)
	if err != nil || len(top) == 0 {
		return "", err
	}
	return top[0].Task, nil
}

// NumEntries counts the entries of a queue of the company.
func NumEntries(ctx context.Context, d *domain.Env, company, queueID string) (int, error) {
	qu, err := Get(ctx, d.DB, d.DB.Read(), company, queueID)
	if err != nil {
		return 0, err
	}
	load, err := d.DB.QueueLoadOf(ctx, d.DB.Read(), qu.ID)
	return load.Entries, err
}

// Target is where a move puts an entry: the new index (0 is the top) from
// the current one and the queue's size; the store clamps it to the queue.
type Target func(current, n int) int

// ToFront moves an entry to the top.
func ToFront(int, int) int { return 0 }

// ToBack moves an entry to the bottom.
func ToBack(_, n int) int { return n - 1 }

// Forward moves an entry by places towards the top.
func Forward(by int) Target {
	// The distance is capped at the queue's length either way, so a huge
	// count cannot overflow; a negative one moves towards the bottom.
	return func(cur, n int) int { return cur - max(-n, min(by, n)) }
}

// Backward moves an entry by places towards the bottom.
func Backward(by int) Target {
	return func(cur, n int) int { return cur + max(-n, min(by, n)) }
}

// Move puts a task at a new place in its queue and returns the place it
// ended at (0 is the top; a target beyond either end stops there). A task
// not in the queue is 400/711.
func Move(ctx context.Context, d *domain.Env, company, queueID, taskID string, target Target) (int, error) {
	var pos int
	err := d.DB.Tx(ctx, func(q store.Querier) error {
		if _, err := GetForUpdate(ctx, d.DB, q, company, queueID); err != nil {
			return err
		}
		var err error
		pos, err = d.DB.MoveQueueEntry(ctx, q, queueID, taskID, target)
		if errors.Is(err, store.ErrNotQueued) {
			return apierr.TaskNotQueued(queueID, taskID)
		}
		return err
	})
	return pos, err
}
