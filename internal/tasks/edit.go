package tasks

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

// Apply writes requested field values into a task and returns the fields
// it wrote (dotted keys, new values); the handler maps its request to it.
type Apply func(t *store.Task, now jsonx.Time) map[string]any

// userFields are the fields whose change alone does not bump last_update.
var userFields = map[string]bool{"name": true, "comment": true, "tags": true, "system_tags": true, "project": true,
	"status_message": true, "created": true}

// EditFieldsRequest is a tasks.edit: the fields to write and the
// references they change.
type EditFieldsRequest struct {
	Company, User, Task string
	// Force edits a task that is not in an EditFrom status.
	Force bool
	Refs  RefChecks
	Apply Apply
}

// EditFields edits a task's definition in its own transaction: only in
// the EditFrom statuses without force, references checked, last_change
// set and last_update too unless only user fields changed, the old and
// new projects bumped. Nothing written is updated 0.
func EditFields(ctx context.Context, d *domain.Env, r EditFieldsRequest) (*domain.Update, error) {
	var res *domain.Update
	err := d.DB.Tx(ctx, func(q store.Querier) error {
		t, err := LoadWritable(ctx, d, q, r.Company, r.Task)
		if err != nil {
			return err
		}
		if !r.Force && !has(EditFrom, t.Status) {
			return apierr.InvalidTaskStatus("").With("expected", Created, "status", t.Status)
		}
		now := d.Time()
		oldProject := t.Project
		fields := r.Apply(t, now)
		if len(fields) == 0 {
			res = &domain.Update{Updated: 0, Fields: map[string]any{}}
			return nil
		}
		if err := CheckRefs(ctx, d, q, r.Company, t, r.Refs); err != nil {
			return err
		}
		t.LastChange, t.LastChangedBy = now, r.User
		fields["last_change"], fields["last_changed_by"] = now, r.User
		for k := range fields {
			if !userFields[k] && k != "last_change" && k != "last_changed_by" {
				t.LastUpdate = now
				fields["last_update"] = now
				break
			}
		}
		if err := d.DB.Tasks().Update(ctx, q, t); err != nil {
			return err
		}
		if err := TouchProjects(ctx, d, q, oldProject, t.Project); err != nil {
			return err
		}
		res = &domain.Update{Updated: 1, Fields: fields}
		return nil
	})
	return res, err
}

// UpdateFieldsRequest is one tasks.update (or one line of
// tasks.update_batch): user fields of a task in any status.
type UpdateFieldsRequest struct {
	Task string
	// ProjectChanged checks the new project (writable, of the company).
	ProjectChanged bool
	Apply          Apply
}

// UpdateFields applies updates to tasks of the company in one
// transaction; any unknown task fails them all (400/101 naming every
// unknown id). Each answer is updated 1 with its fields, or 0 when it
// wrote nothing. With touchProjects the old and new projects of each
// written task are bumped (tasks.update; tasks.update_batch does not).
func UpdateFields(ctx context.Context, d *domain.Env, company, user string, updates []UpdateFieldsRequest, touchProjects bool) ([]*domain.Update, error) {
	out := make([]*domain.Update, len(updates))
	err := d.DB.Tx(ctx, func(q store.Querier) error {
		ids := make([]string, len(updates))
		for i, u := range updates {
			ids[i] = u.Task
		}
		loaded, err := LoadAllWritable(ctx, d, q, company, ids)
		if err != nil {
			return err
		}
		for i, u := range updates {
			t := loaded[u.Task]
			oldProject := t.Project
			fields, err := updateFields(ctx, d, q, company, user, t, u)
			if err != nil {
				return err
			}
			out[i] = &domain.Update{Fields: fields}
			if len(fields) == 0 {
				continue
			}
			out[i].Updated = 1
			if touchProjects {
				if err := TouchProjects(ctx, d, q, oldProject, t.Project); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return out, err
}

// updateFields writes one update into t and saves it when it changed.
func updateFields(ctx context.Context, d *domain.Env, q store.Querier, company, user string, t *store.Task, u UpdateFieldsRequest) (map[string]any, error) {
	now := d.Time()
	fields := u.Apply(t, now)
	if u.ProjectChanged {
		if err := CheckRefs(ctx, d, q, company, t, RefChecks{Project: true}); err != nil {
			return nil, err
		}
	}
	if len(fields) == 0 {
		return fields, nil
	}
	t.LastChange, t.LastChangedBy = now, user
	fields["last_change"], fields["last_changed_by"] = now, user
	return fields, d.DB.Tasks().Update(ctx, q, t)
}
