package tasks

import (
	"context"
	"errors"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/queues"
	"github.com/trove-ml/trove/internal/store"
)

// EnqueueRequest is a status request plus the target queue.
type EnqueueRequest struct {
	StatusRequest
	// Queue is a queue id; QueueName finds or creates a queue by name;
	// neither means the company's default queue.
	Queue     string
	QueueName string
	// ValidateRefs checks the task's parent, project and input models
	// first (tasks.enqueue_many with validate_tasks).
	ValidateRefs bool
	// ScriptOptional skips the script check: a pipeline run is enqueued
	// as the reference does it, whatever script its controller has.
	ScriptOptional bool
}

// Enqueue puts a created task into a queue: status queued (enqueue_status
// remembers the status before), execution.queue = the queue, and the task
// leaves every other queue. The task needs an entry point and either a
// repository or inline code (script.diff).
func Enqueue(ctx context.Context, d *domain.Env, q store.Querier, r EnqueueRequest) (*domain.Update, error) {
	if r.ValidateRefs {
		t, err := LoadWritable(ctx, d, q, r.Company, r.Task)
		if err != nil {
			return nil, err
		}
		if err := CheckRefs(ctx, d, q, r.Company, t, AllRefs); err != nil {
			return nil, err
		}
	}
	if r.Queue != "" && r.QueueName != "" {
		return nil, apierr.ValidationMsg("either queue id or queue name should be provided")
	}
	t, err := LoadWritable(ctx, d, q, r.Company, r.Task)
	if err != nil {
		return nil, err
	}
	if err := CheckFrom(t, Queued, EnqueueFrom, false); err != nil {
		return nil, err
	}
	if !r.ScriptOptional && (strings.TrimSpace(t.Script.EntryPoint) == "" ||
		(strings.TrimSpace(t.Script.Repository) == "" && (t.Script.Diff == nil || strings.TrimSpace(*t.Script.Diff) == ""))) {
		return nil, apierr.MissingTaskFields("script entry point and a repository or script diff are required to enqueue").With("task", t.ID)
	}
	queueID, err := resolveQueue(ctx, d, q, r)
	if err != nil {
		return nil, err
	}
	before := t.Status
	res, err := SetStatus(ctx, d, q, r.User, t, Change{To: Queued, Force: true, StatusReason: r.StatusReason, StatusMessage: r.StatusMessage,
		Apply: func(t *store.Task, fields map[string]any) {
			t.EnqueueStatus = before
			t.Execution.Queue = queueID
			fields["execution.queue"] = queueID
		}})
	if err != nil {
		return nil, err
	}
	if err := d.DB.AddQueueEntry(ctx, q, queueID, t.ID, d.Now().UnixMilli()); err != nil {
		if errors.Is(err, store.ErrAlreadyQueued) {
			return nil, apierr.TaskAlreadyQueued(t.ID)
		}
		if errors.Is(err, store.ErrNotFound) {
			// The queue was deleted between lookup and append.
			return nil, apierr.InvalidQueueID(queueID)
		}
		return nil, err
	}
	if _, err := d.DB.RemoveTaskFromQueues(ctx, q, t.ID, queueID, d.Time()); err != nil {
		return nil, err
	}
	return res, nil
}

// resolveQueue finds the queue of an enqueue request in the company: by
// id, by name (created when missing), else the company's default queue.
func resolveQueue(ctx context.Context, d *domain.Env, q store.Querier, r EnqueueRequest) (string, error) {
	switch {
	case r.Queue != "":
		qu, err := queues.Get(ctx, d.DB, q, r.Company, r.Queue)
		if err != nil {
			return "", err
		}
		return qu.ID, nil
	case r.QueueName != "":
		list, err := d.DB.QueuesNamed(ctx, q, r.Company, r.QueueName)
		if err != nil {
			return "", err
		}
		if len(list) > 0 {
			return list[0].ID, nil
		}
		now := d.Time()
		qu := &store.Queue{ID: ids.New(), Company: r.Company, User: r.User, Name: r.QueueName, Created: now, LastUpdate: now,
			Tags: []string{}, SystemTags: []string{}, Metadata: map[string]*store.MetadataItem{}}
		if err := d.DB.Queues().Insert(ctx, q, qu); err != nil {
			return "", err
		}
		return qu.ID, nil
	}
	qu, err := queues.Default(ctx, d.DB, q, r.Company)
	if err != nil {
		return "", err
	}
	return qu.ID, nil
}

// DequeueRequest is a status request plus the dequeue options.
type DequeueRequest struct {
	StatusRequest
	// NewStatus is the status after dequeue ("" = the status before the
	// enqueue, else created).
	NewStatus           string
	RemoveFromAllQueues bool
}

// Dequeue takes a queued task out of its queue (all queues with
// RemoveFromAllQueues) and gives it back its status before the enqueue.
// execution.queue is kept.
func Dequeue(ctx context.Context, d *domain.Env, q store.Querier, r DequeueRequest) (*domain.Update, error) {
	if r.NewStatus != "" && !ValidStatus(r.NewStatus) {
		return nil, apierr.Validation("new_status", "invalid task status %s", r.NewStatus)
	}
	t, err := LoadWritable(ctx, d, q, r.Company, r.Task)
	if err != nil {
		return nil, err
	}
	to := r.NewStatus
	if to == "" {
		to = t.EnqueueStatus
	}
	if to == "" || to == Queued {
		to = Created
	}
	if err := CheckFrom(t, to, DequeueFrom, false); err != nil {
		return nil, err
	}
	if err := leaveQueues(ctx, d, q, t, r.RemoveFromAllQueues); err != nil {
		return nil, err
	}
	return SetStatus(ctx, d, q, r.User, t, Change{To: to, Force: true, StatusReason: r.StatusReason, StatusMessage: r.StatusMessage,
		Apply: func(t *store.Task, _ map[string]any) { t.EnqueueStatus = "" }})
}

// leaveQueues removes the task from its execution queue, or from all.
func leaveQueues(ctx context.Context, d *domain.Env, q store.Querier, t *store.Task, all bool) error {
	if all || t.Execution.Queue == "" {
		_, err := d.DB.RemoveTaskFromQueues(ctx, q, t.ID, "", d.Time())
		return err
	}
	_, err := d.DB.RemoveQueueEntry(ctx, q, t.Execution.Queue, t.ID, d.Time())
	return err
}
