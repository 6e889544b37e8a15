package queues

import (
	"context"
	"errors"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/taskops"
)

// Handout is the entry a worker got and its task (nil when the task no
// longer exists).
type Handout struct {
	Entry store.QueueEntry
	Task  *store.Task
}

// NextTask hands out the top entry of a queue of the company: each entry
// goes to exactly one caller. onlyTask, when set, takes the top entry only
// if it is this task. An empty queue gives nil.
func NextTask(ctx context.Context, d *domain.Env, company, queueID, onlyTask string) (*Handout, error) {
	var popped *store.QueueEntry
	err := d.DB.Tx(ctx, func(q store.Querier) error {
		// No lock on the queue: the entry's own row lock decides who
		// gets it, so workers of one queue are served in parallel.
		if _, err := Get(ctx, d.DB, q, company, queueID); err != nil {
			return err
		}
		var err error
		popped, err = d.DB.PopQueueEntry(ctx, q, queueID, onlyTask)
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
	if err != nil || t.Status != taskops.Stopped {
		return t, err
	}
	err = d.DB.Tx(ctx, func(q store.Querier) error {
		t, err = d.DB.Tasks().GetForUpdate(ctx, q, id)
		if err != nil || t.Status != taskops.Stopped {
			return err
		}
		t.Normalize()
		t.Status = taskops.Queued
		return d.DB.Tasks().Update(ctx, q, t)
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	return t, err
}
