package tasks

import (
	"context"
	"time"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// The statuses each operation accepts without force (docs/task-states.md
// is the readable form of this table; force accepts any status).
var (
	StartedFrom   = []string{Created, Queued}
	StopFrom      = []string{InProgress}
	StoppedFrom   = []string{InProgress, Stopped}
	CompletedFrom = []string{InProgress, Stopped, Completed}
	FailedFrom    = []string{InProgress, Stopped, Closed, Failed}
	CloseFrom     = []string{Stopped, Closed}
	EnqueueFrom   = []string{Created}
	DequeueFrom   = []string{Queued}
	ResetFrom     = []string{Created, Queued, InProgress, Stopped, Closed, Failed, Unknown}
	EditFrom      = []string{Created}
	// DeleteRefused are the statuses tasks.delete refuses without force:
	// in_progress (the seeds) and published (rulings.md: a published
	// task is locked).
	DeleteRefused = []string{InProgress, Published}
)

// StatusRequest is what every state operation takes.
type StatusRequest struct {
	Company, User string
	// UserName names the caller in "Stopped by <name>".
	UserName      string
	Task          string
	Force         bool
	StatusReason  string
	StatusMessage string
}

func (r StatusRequest) change(to string, from []string) Change {
	return Change{To: to, From: from, Force: r.Force, StatusReason: r.StatusReason, StatusMessage: r.StatusMessage}
}

// Started moves a task to in_progress; started is set only when unset.
func Started(ctx context.Context, d *domain.Env, q store.Querier, r StatusRequest) (*domain.Update, error) {
	t, err := LoadWritable(ctx, d, q, r.Company, r.Task)
	if err != nil {
		return nil, err
	}
	ch := r.change(InProgress, StartedFrom)
	now := d.Time()
	// A running task keeps its start; any other starts a new run (as
	// the reference from 2.3): started is now and the previous run's
	// completed and active_duration are cleared.
	running := t.Status == InProgress && t.Started != nil
	ch.Apply = func(t *store.Task, fields map[string]any) {
		if running {
			return
		}
		t.Started, t.Completed, t.ActiveDuration = &now, nil, nil
		fields["started"] = now
	}
	return SetStatus(ctx, d, q, r.User, t, ch)
}

// MarkStopped records that a task stopped; completed = now.
func MarkStopped(ctx context.Context, d *domain.Env, q store.Querier, r StatusRequest) (*domain.Update, error) {
	return simple(ctx, d, q, r, Stopped, StoppedFrom, true)
}

// MarkFailed records a failure; completed = now (as the reference from
// 2.3, so a failed run has an end).
func MarkFailed(ctx context.Context, d *domain.Env, q store.Querier, r StatusRequest) (*domain.Update, error) {
	return simple(ctx, d, q, r, Failed, FailedFrom, true)
}

// Close closes a task.
func Close(ctx context.Context, d *domain.Env, q store.Querier, r StatusRequest) (*domain.Update, error) {
	return simple(ctx, d, q, r, Closed, CloseFrom, false)
}

// MarkCompleted records completion; completed = now. A task already
// completed is left as it is (updated 0) unless force rewrites it.
func MarkCompleted(ctx context.Context, d *domain.Env, q store.Querier, r StatusRequest) (*domain.Update, error) {
	t, err := LoadWritable(ctx, d, q, r.Company, r.Task)
	if err != nil {
		return nil, err
	}
	if t.Status == Completed && !r.Force {
		return &domain.Update{Updated: 0, Fields: map[string]any{}}, nil
	}
	return SetStatus(ctx, d, q, r.User, t, withCompleted(d, r.change(Completed, CompletedFrom)))
}

func simple(ctx context.Context, d *domain.Env, q store.Querier, r StatusRequest, to string, from []string, setCompleted bool) (*domain.Update, error) {
	t, err := LoadWritable(ctx, d, q, r.Company, r.Task)
	if err != nil {
		return nil, err
	}
	ch := r.change(to, from)
	if setCompleted {
		ch = withCompleted(d, ch)
	}
	return SetStatus(ctx, d, q, r.User, t, ch)
}

func withCompleted(d *domain.Env, ch Change) Change {
	now := d.Time()
	ch.Apply = func(t *store.Task, fields map[string]any) {
		t.Completed = &now
		fields["completed"] = now
	}
	return ch
}

// WorkerTimeout is how recently a worker must have updated a task for
// tasks.stop to leave the stopping to it.
const WorkerTimeout = 600 * time.Second

// StoppingMessage is the status message that asks a worker to stop.
const StoppingMessage = "stopping"

// Stop asks a task to stop. A task run by a live worker (last_worker set
// and last_update within WorkerTimeout, not a development task) keeps its
// status with status_message "stopping" for the worker to act on; any
// other task is stopped at once (a queued one, with force, leaves its
// queue first). The request's status_message is replaced, as the reference
// does.
func Stop(ctx context.Context, d *domain.Env, q store.Querier, r StatusRequest) (*domain.Update, error) {
	t, err := LoadWritable(ctx, d, q, r.Company, r.Task)
	if err != nil {
		return nil, err
	}
	if err := CheckFrom(t, Stopped, StopFrom, r.Force); err != nil {
		return nil, err
	}
	live := t.LastWorker != "" && !domain.HasTag(t.SystemTags, TagDevelopment) &&
		d.Now().Sub(t.LastUpdate.Time) < WorkerTimeout && t.Status == InProgress
	ch := Change{To: Stopped, Force: true, StatusReason: r.StatusReason, StatusMessage: "Stopped by " + userName(r.UserName, r.User)}
	if live {
		ch.To, ch.StatusMessage = t.Status, StoppingMessage
	} else if t.Status == Queued {
		if _, err := d.DB.RemoveTaskFromQueues(ctx, q, t.ID, "", d.Time()); err != nil {
			return nil, err
		}
	}
	return SetStatus(ctx, d, q, r.User, t, ch)
}
