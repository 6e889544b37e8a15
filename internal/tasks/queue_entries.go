package tasks

import (
	"context"
	"errors"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/queues"
	"github.com/trove-ml/trove/internal/store"
)

// The queue operations that also change tasks live here, above the queues
// domain: a task that leaves a queue without being run gets its status
// back (Revert), and a task handed out after an abort is queued again.

// RemoveFromQueue takes a task out of a queue of the company (400/711
// when it is not in it); revert gives the task back its status before the
// enqueue.
func RemoveFromQueue(ctx context.Context, d *domain.Env, company, user, queueID, taskID string, revert bool) error {
	return d.DB.Tx(ctx, func(q store.Querier) error {
		if _, err := queues.GetForUpdate(ctx, d.DB, q, company, queueID); err != nil {
			return err
		}
		ok, err := d.DB.RemoveQueueEntry(ctx, q, queueID, taskID, d.Time())
		if err != nil {
			return err
		}
		if !ok {
			return apierr.TaskNotQueued(queueID, taskID)
		}
		if revert {
			_, err = Revert(ctx, d, q, company, user, queueID, []string{taskID}, "Task was removed from the queue "+queueID)
		}
		return err
	})
}

// ClearQueue empties a queue of the company; its tasks get their status
// back. The ids of the tasks that changed are returned.
func ClearQueue(ctx context.Context, d *domain.Env, company, user, queueID string) ([]string, error) {
	var removed []string
	err := d.DB.Tx(ctx, func(q store.Querier) error {
		if _, err := queues.GetForUpdate(ctx, d.DB, q, company, queueID); err != nil {
			return err
		}
		ids, err := d.DB.ClearQueue(ctx, q, queueID, d.Time())
		if err != nil {
			return err
		}
		removed, err = Revert(ctx, d, q, company, user, queueID, ids, "Queue "+queueID+" was cleared")
		return err
	})
	return removed, err
}

// DeleteQueue removes a queue of the company. A queue with entries is
// 400/702 unless force, which first gives the queued tasks back their
// status.
func DeleteQueue(ctx context.Context, d *domain.Env, company, user, id string, force bool) error {
	return d.DB.Tx(ctx, func(q store.Querier) error {
		qu, err := queues.GetForUpdate(ctx, d.DB, q, company, id)
		if err != nil {
			return err
		}
		load, err := d.DB.QueueLoadOf(ctx, q, qu.ID)
		if err != nil {
			return err
		}
		if load.Entries > 0 {
			if !force {
				return apierr.QueueNotEmpty(load.Entries).With("queue", qu.ID)
			}
			// Only the entries this call removes give their tasks back
			// (one handed out meanwhile belongs to its worker).
			ids, err := d.DB.ClearQueue(ctx, q, qu.ID, d.Time())
			if err != nil {
				return err
			}
			if _, err := Revert(ctx, d, q, company, user, qu.ID, ids, "Queue "+qu.ID+" was deleted"); err != nil {
				return err
			}
		}
		_, err = d.DB.Queues().Delete(ctx, q, qu.ID)
		return err
	})
}

// Handout is the entry a worker got and its task (nil when the task no
// longer exists).
type Handout struct {
	Entry store.QueueEntry
	Task  *store.Task
}

// NextFromQueue hands out the top entry of a queue of the company: each
// entry goes to exactly one caller. onlyTask, when set, takes the top
// entry only if it is this task. An empty queue gives nil.
func NextFromQueue(ctx context.Context, d *domain.Env, company, queueID, onlyTask string) (*Handout, error) {
	var popped *store.QueueEntry
	err := d.DB.Tx(ctx, func(q store.Querier) error {
		// No lock on the queue: the entry's own row lock decides who
		// gets it, so workers of one queue are served in parallel.
		if _, err := queues.Get(ctx, d.DB, q, company, queueID); err != nil {
			return err
		}
		var err error
		popped, err = d.DB.PopQueueEntry(ctx, q, queueID, onlyTask, d.Time())
		return err
	})
	if err != nil || popped == nil {
		return nil, err
	}
	t, err := requeueStopped(ctx, d, popped.Task)
	if err != nil {
		return nil, err
	}
	return &Handout{Entry: *popped, Task: t}, nil
}

// requeueStopped puts a handed-out task that was stopped meanwhile (an
// abort racing the enqueue) back to queued, as the reference does, so the
// agent can run it. It runs after the hand-out committed, taking the
// task's lock alone. The task is returned (nil when it no longer exists).
func requeueStopped(ctx context.Context, d *domain.Env, id string) (*store.Task, error) {
	t, err := d.DB.Tasks().Get(ctx, d.DB.Read(), id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil || t.Status != Stopped {
		return t, err
	}
	err = d.DB.Tx(ctx, func(q store.Querier) error {
		t, err = d.DB.Tasks().GetForUpdate(ctx, q, id)
		if err != nil || t.Status != Stopped {
			return err
		}
		t.Normalize()
		t.Status = Queued
		return d.DB.Tasks().Update(ctx, q, t)
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	return t, err
}
