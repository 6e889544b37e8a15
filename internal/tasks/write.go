package tasks

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// Create stores a new task in its own transaction after checking its
// references, and bumps its project.
func Create(ctx context.Context, d *domain.Env, company string, t *store.Task, checks RefChecks) error {
	return d.DB.Tx(ctx, func(q store.Querier) error { return Insert(ctx, d, q, company, t, checks) })
}

// Insert is Create inside the caller's transaction (tasks.clone, which
// may create the project first).
func Insert(ctx context.Context, d *domain.Env, q store.Querier, company string, t *store.Task, checks RefChecks) error {
	if err := CheckRefs(ctx, d, q, company, t, checks); err != nil {
		return err
	}
	if err := d.DB.Tasks().Insert(ctx, q, t); err != nil {
		return err
	}
	return d.DB.TouchProject(ctx, q, t.Project, t.Created)
}

// Validate checks a new task's references as Create would, without
// storing it.
func Validate(ctx context.Context, d *domain.Env, company string, t *store.Task) error {
	return CheckRefs(ctx, d, d.DB.Read(), company, t, AllRefs)
}

// Visible loads a task the company may read (its own or a public one);
// unknown ids are 400/101.
func Visible(ctx context.Context, d *domain.Env, q store.Querier, company, id string) (*store.Task, error) {
	t, err := d.DB.Tasks().Get(ctx, q, id, domain.Visible(company)...)
	if err != nil {
		return nil, domain.NotFound(err, apierr.InvalidTaskID(id))
	}
	t.Normalize()
	return t, nil
}

// CheckEditable applies the status lock of partial edits: created, or
// created and in_progress with force.
func CheckEditable(t *store.Task, force bool) error {
	if t.Status == Created || (force && t.Status == InProgress) {
		return nil
	}
	return apierr.InvalidTaskStatus("").With("expected", Created, "status", t.Status)
}

// EditRequest names the task of a partial edit and its status lock.
type EditRequest struct {
	Company, User, Task string
	Force               bool
	// AnyStatus skips the status lock (user properties).
	AnyStatus bool
	// Touch sets last_update besides last_change.
	Touch bool
}

// EditLocked runs a partial edit of one task in its own transaction:
// under the status lock unless AnyStatus, last_change (and with Touch
// last_update) set, the task saved.
func EditLocked(ctx context.Context, d *domain.Env, r EditRequest, edit func(t *store.Task) error) error {
	return d.DB.Tx(ctx, func(q store.Querier) error {
		t, err := LoadWritable(ctx, d, q, r.Company, r.Task)
		if err != nil {
			return err
		}
		if !r.AnyStatus {
			if err := CheckEditable(t, r.Force); err != nil {
				return err
			}
		}
		if err := edit(t); err != nil {
			return err
		}
		now := d.Time()
		t.LastChange, t.LastChangedBy = now, r.User
		if r.Touch {
			t.LastUpdate = now
		}
		return d.DB.Tasks().Update(ctx, q, t)
	})
}

// Write runs a small write of one task in any status in its own
// transaction, setting last_update and last_change; write returns the
// fields it changed.
func Write(ctx context.Context, d *domain.Env, company, user, id string, write func(t *store.Task) (map[string]any, error)) (*domain.Update, error) {
	var res *domain.Update
	err := d.DB.Tx(ctx, func(q store.Querier) error {
		t, err := LoadWritable(ctx, d, q, company, id)
		if err != nil {
			return err
		}
		fields, err := write(t)
		if err != nil {
			return err
		}
		now := d.Time()
		t.LastUpdate, t.LastChange, t.LastChangedBy = now, now, user
		if err := d.DB.Tasks().Update(ctx, q, t); err != nil {
			return err
		}
		res = &domain.Update{Updated: 1, Fields: fields}
		return nil
	})
	return res, err
}

// Ping records that a task is alive: a running task's active duration
// becomes the time since it started.
func Ping(ctx context.Context, d *domain.Env, company, user, id string) error {
	_, err := Write(ctx, d, company, user, id, func(t *store.Task) (map[string]any, error) {
		if t.Status == InProgress && t.Started != nil {
			secs := int64(d.Now().Sub(t.Started.Time).Seconds())
			t.ActiveDuration = &secs
		}
		return nil, nil
	})
	return err
}

// TouchProjects bumps last_update of each distinct project given.
func TouchProjects(ctx context.Context, d *domain.Env, q store.Querier, ids ...string) error {
	seen := map[string]bool{}
	for _, id := range ids {
		if id == "" || seen[id] {
			continue
		}
		seen[id] = true
		if err := d.DB.TouchProject(ctx, q, id, d.Time()); err != nil {
			return err
		}
	}
	return nil
}

// CompletedResult is a completion and, when asked, the publication.
type CompletedResult struct {
	*domain.Update
	// Published is the number of tasks published (0 or 1).
	Published int
}

// Complete marks a task completed and, with publish, publishes it in the
// same transaction with the same force (the answer's fields then show the
// published status and time). A task already completed is not completed
// again, but publish still publishes it: the publication is then the
// update the answer counts, as the reference counts it.
func Complete(ctx context.Context, d *domain.Env, r StatusRequest, publish bool) (*CompletedResult, error) {
	out := &CompletedResult{}
	err := d.DB.Tx(ctx, func(q store.Querier) error {
		res, err := MarkCompleted(ctx, d, q, r)
		if err != nil {
			return err
		}
		out.Update = res
		if !publish {
			return nil
		}
		pub, err := Publish(ctx, d, q, r.Company, r.User, r.Task, r.Force, true, r.StatusReason, r.StatusMessage)
		if err != nil {
			return err
		}
		out.Published = pub.Updated
		if res.Updated == 0 {
			out.Update = pub
			return nil
		}
		out.Fields["status"] = Published
		out.Fields["published"] = pub.Fields["published"]
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
