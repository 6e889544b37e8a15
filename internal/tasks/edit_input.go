package tasks

import (
	"context"
	"strings"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

// refs are the references the given fields change.
func (f *Fields) refs() RefChecks {
	return RefChecks{Parent: f.Parent != nil, Project: f.Project != nil, Models: f.Models != nil}
}

// newTask builds a created task of the caller from the fields.
func newTask(d *domain.Env, company, user string, f *Fields) *store.Task {
	now := d.Time()
	t := &store.Task{ID: ids.New(), Company: company, User: user, Status: Created,
		Created: now, LastUpdate: now, LastChange: now, LastChangedBy: user}
	t.Normalize()
	f.Apply(t, now)
	return t
}

// CreateTask stores a new task of the caller built from the fields
// (tasks.create) and returns its id.
func CreateTask(ctx context.Context, d *domain.Env, company, user string, f *Fields) (string, error) {
	t := newTask(d, company, user, f)
	if err := Create(ctx, d, company, t, AllRefs); err != nil {
		return "", err
	}
	return t.ID, nil
}

// ValidateTask checks a task as CreateTask would, without storing it. A
// parent that refers to a deleted task is dropped first, as the
// reference does.
func ValidateTask(ctx context.Context, d *domain.Env, company, user string, f *Fields) error {
	in := *f
	if in.Parent != nil && strings.HasPrefix(*in.Parent, DeletedPrefix) {
		in.Parent = nil
	}
	return Validate(ctx, d, company, newTask(d, company, user, &in))
}

// EditInput is a tasks.edit: the fields and, when given, a new status.
type EditInput struct {
	Company, User, Task string
	Force               bool
	Fields              *Fields
	Status              *string
}

// Edit runs EditFields with the input's fields, checking the references
// they change.
func Edit(ctx context.Context, d *domain.Env, in EditInput) (*domain.Update, error) {
	return EditFields(ctx, d, EditFieldsRequest{Company: in.Company, User: in.User, Task: in.Task, Force: in.Force,
		Refs: in.Fields.refs(), Apply: func(t *store.Task, now jsonx.Time) map[string]any {
			fields := in.Fields.Apply(t, now)
			if in.Status != nil {
				t.Status = *in.Status
				fields["status"] = t.Status
			}
			return fields
		}})
}

// UpdateInput is one tasks.update: user fields of a task in any status.
type UpdateInput struct {
	Task                       string
	Name, Comment, Project     *string
	Tags, SystemTags           *[]string
	StatusMessage, OutputError *string
	// Created is settable as the seeds say (the reference ignores it).
	Created *jsonx.Time
}

func (u *UpdateInput) request() UpdateFieldsRequest {
	return UpdateFieldsRequest{Task: u.Task, ProjectChanged: u.Project != nil, Apply: func(t *store.Task, now jsonx.Time) map[string]any {
		f := Fields{Name: u.Name, Tags: u.Tags, SystemTags: u.SystemTags, Comment: u.Comment, Project: u.Project}
		fields := f.Apply(t, now)
		if u.StatusMessage != nil {
			t.StatusMessage = u.StatusMessage
			fields["status_message"] = *u.StatusMessage
		}
		if u.OutputError != nil {
			t.Output.Error = u.OutputError
			fields["output.error"] = *u.OutputError
		}
		if u.Created != nil && !u.Created.IsZero() {
			t.Created = *u.Created
			fields["created"] = t.Created
		}
		return fields
	}}
}

// Update applies tasks.update inputs in one transaction (UpdateFields).
func Update(ctx context.Context, d *domain.Env, company, user string, in []*UpdateInput, touchProjects bool) ([]*domain.Update, error) {
	reqs := make([]UpdateFieldsRequest, len(in))
	for i, u := range in {
		reqs[i] = u.request()
	}
	return UpdateFields(ctx, d, company, user, reqs, touchProjects)
}

// SetRequirements replaces a task's script requirements in any status.
func SetRequirements(ctx context.Context, d *domain.Env, company, user, id string, reqs map[string]any) (*domain.Update, error) {
	return Write(ctx, d, company, user, id, func(t *store.Task) (map[string]any, error) {
		t.Script.Requirements = reqs
		return map[string]any{"script.requirements": reqs}, nil
	})
}
