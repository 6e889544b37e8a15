// Package tasks is the tasks domain: the status machine and every task
// rule and cascade (create, edit, enqueue, reset, delete with its queue
// entries, events, output models and files, the silent-task watchdog).
// Functions that take a store.Querier work inside the caller's
// transaction (other services compose them, e.g. models.set_ready
// publishing a task); the others (Reset, Delete, Create, EditFields, ...)
// run their own and remove stored files only after it commits.
package tasks

import (
	"context"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// Task statuses (the reference's full set).
const (
	Created    = "created"
	Queued     = "queued"
	InProgress = "in_progress"
	Stopped    = "stopped"
	Published  = "published"
	Publishing = "publishing"
	Closed     = "closed"
	Failed     = "failed"
	Completed  = "completed"
	Unknown    = "unknown"
)

// Statuses lists every valid task status, in the order lists of them
// (project status counts) show them. It is the one list of statuses.
var Statuses = []string{Created, Queued, InProgress, Stopped, Publishing, Published, Closed, Failed, Completed, Unknown}

// ValidStatus reports whether s is a task status.
func ValidStatus(s string) bool { return has(Statuses, s) }

// System tags with a meaning for tasks.
const (
	TagArchived    = "archived"
	TagHidden      = "hidden"
	TagDevelopment = "development"
)

// Change is one status change of a task.
type Change struct {
	// To is the new status.
	To string
	// From lists the statuses the operation accepts without force; a
	// task in any other status is refused with 400/110. Force skips it.
	From  []string
	Force bool
	// StatusReason and StatusMessage are written as given ("" included).
	StatusReason  string
	StatusMessage string
	// Apply makes the operation's other writes on the task and records
	// them in fields (dotted keys, plain values), inside the same write.
	Apply func(t *store.Task, fields map[string]any)
}

// CheckFrom refuses a status change the operation does not accept from
// the task's current status (unless force).
func CheckFrom(t *store.Task, to string, from []string, force bool) error {
	if force || has(from, t.Status) {
		return nil
	}
	return apierr.InvalidTaskStatus("Invalid status change").With("current_status", t.Status, "new_status", to)
}

// SetStatus applies ch to t, a task the caller loaded in this
// transaction. The write is conditional on the status read with t: if
// another change won meanwhile, the call fails with 400/121 and nothing is
// written. On success t holds the new state. The answer lists the written
// fields as the reference does.
func SetStatus(ctx context.Context, d *domain.Env, q store.Querier, user string, t *store.Task, ch Change) (*domain.Update, error) {
	if !ValidStatus(ch.To) {
		return nil, apierr.Validation("status", "invalid task status %s", ch.To)
	}
	if err := CheckFrom(t, ch.To, ch.From, ch.Force); err != nil {
		return nil, err
	}
	read := t.Status
	now := d.Time()
	reason, message := ch.StatusReason, ch.StatusMessage
	t.Status = ch.To
	t.StatusReason, t.StatusMessage = &reason, &message
	t.StatusChanged = &now
	t.LastUpdate, t.LastChange, t.LastChangedBy = now, now, user
	fields := map[string]any{
		"status": ch.To, "status_reason": reason, "status_message": message,
		"status_changed": now, "last_update": now, "last_change": now, "last_changed_by": user,
	}
	if ch.To == Queued {
		t.SystemTags = domain.WithoutTag(t.SystemTags, TagDevelopment)
	}
	if ch.Apply != nil {
		ch.Apply(t, fields)
	}
	t.Normalize()
	ok, err := d.DB.UpdateTaskIfStatus(ctx, q, t, read)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, apierr.FailedChangingTaskStatus().With("task_id", t.ID, "current_status", read, "new_status", ch.To)
	}
	if err := d.DB.TouchProject(ctx, q, t.Project, now); err != nil {
		return nil, err
	}
	return &domain.Update{Updated: 1, Fields: fields}, nil
}

// LoadWritable loads a task of the company for writing inside a
// transaction: unknown (or another company's) ids are 400/101, public
// tasks 403/21.
func LoadWritable(ctx context.Context, d *domain.Env, q store.Querier, company, id string) (*store.Task, error) {
	t, err := d.DB.Tasks().GetForUpdate(ctx, q, id, domain.Visible(company)...)
	if err != nil {
		return nil, domain.NotFound(err, apierr.InvalidTaskID(id))
	}
	if t.Company == "" {
		return nil, apierr.NoWritePermission("cannot modify public task: id=%s", id)
	}
	t.Normalize()
	return t, nil
}

// LoadAllWritable loads the listed tasks for writing (each once, by id);
// unknown ids fail the whole call with one 400/101 naming them all.
func LoadAllWritable(ctx context.Context, d *domain.Env, q store.Querier, company string, ids []string) (map[string]*store.Task, error) {
	var missing []string
	loaded := map[string]*store.Task{}
	for _, id := range ids {
		if loaded[id] != nil {
			continue
		}
		t, err := LoadWritable(ctx, d, q, company, id)
		if err != nil {
			if !apierr.Is(err, 400, 101) {
				return nil, err
			}
			missing = append(missing, id)
			continue
		}
		loaded[id] = t
	}
	if len(missing) > 0 {
		return nil, apierr.InvalidTaskID(missing...)
	}
	return loaded, nil
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// userName is how stop messages name the caller.
func userName(name, id string) string {
	if strings.TrimSpace(name) != "" {
		return name
	}
	return id
}
