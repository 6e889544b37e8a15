package models

import (
	"context"
	"fmt"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/store"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

// outputModelName is the name of the output entry UpdateForTask writes.
const outputModelName = "Output Model"

// ForTaskInput is a models.update_for_task: exactly one of URI and
// OverrideModelID is set.
type ForTaskInput struct {
	Task, URI, OverrideModelID string
	Comment, Name              *string
	Iteration                  *int64
	Tags, SystemTags           *[]string
}

// ForTaskResult is the model UpdateForTask wrote: Created when a new model
// was made from the task, Update when the task's existing output model
// changed (neither when override_model_id only pointed the task at one).
type ForTaskResult struct {
	ID      string
	Created bool
	Update  *domain.Update
}

// UpdateForTask records the output model of a created or in_progress
// task, the pre-2.13 way: OverrideModelID makes an existing model the
// task's output; URI updates the task's last output model, or creates
// one from the task's execution when it has none.
func UpdateForTask(ctx context.Context, env *domain.Env, a Actor, in ForTaskInput) (*ForTaskResult, error) {
	var res *ForTaskResult
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		t, err := taskdom.LoadWritable(ctx, env, q, a.Company, in.Task)
		if err != nil {
			return err
		}
		if t.Status != taskdom.Created && t.Status != taskdom.InProgress {
			return apierr.InvalidTaskStatus("model can only be updated for tasks in the [created, in_progress] states").
				With("id", t.ID, "status", t.Status)
		}
		var m *store.Model
		created := false
		switch {
		case in.OverrideModelID != "":
			if m, err = LoadWritable(ctx, env, q, a.Company, in.OverrideModelID); err != nil {
				return err
			}
		case len(t.Models.Output) > 0 && t.Models.Output[len(t.Models.Output)-1] != nil:
			id := t.Models.Output[len(t.Models.Output)-1].Model
			if m, err = LoadWritable(ctx, env, q, a.Company, id); err != nil {
				return err
			}
			u, err := applyPatch(ctx, env, q, a, m, in.patchFor(t))
			if err != nil {
				return err
			}
			res = &ForTaskResult{ID: m.ID, Update: u}
			return nil
		default:
			if m, err = modelFromTask(ctx, env, q, a, t, in); err != nil {
				return err
			}
			created = true
		}
		now := env.Time()
		t.Models.Output = []*store.TaskModelItem{{Name: outputModelName, Model: m.ID, Updated: &now}}
		if in.Iteration != nil {
			t.LastIteration = max(t.LastIteration, *in.Iteration)
		}
		t.LastUpdate, t.LastChange, t.LastChangedBy = now, now, a.User
		if err := env.DB.Tasks().Update(ctx, q, t); err != nil {
			return err
		}
		res = &ForTaskResult{ID: m.ID, Created: created}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// defaults fills name and comment from the task when not given.
func (in ForTaskInput) defaults(t *store.Task) (name, comment string) {
	name, comment = t.Name, fmt.Sprintf("Created by task `%s` (%s)", t.Name, t.ID)
	if in.Name != nil {
		name = *in.Name
	}
	if in.Comment != nil {
		comment = *in.Comment
	}
	return name, comment
}

// patchFor is the update of the task's existing output model.
func (in ForTaskInput) patchFor(t *store.Task) *Patch {
	name, comment := in.defaults(t)
	uri := in.URI
	return &Patch{Name: &name, Comment: &comment, URI: &uri, Tags: in.Tags, SystemTags: in.SystemTags,
		Iteration: in.Iteration, Task: &t.ID}
}

// modelFromTask creates the task's output model from its execution.
func modelFromTask(ctx context.Context, env *domain.Env, q store.Querier, a Actor, t *store.Task, in ForTaskInput) (*store.Model, error) {
	name, comment := in.defaults(t)
	if name = strings.TrimSpace(name); name == "" {
		return nil, apierr.Validation("name", "must not be empty")
	}
	now := env.Time()
	m := &store.Model{ID: ids.New(), Company: a.Company, User: a.User, Name: name, Created: now,
		LastUpdate: now, LastChange: now, LastChangedBy: a.User, URI: in.URI, Comment: &comment,
		Project: t.Project, Task: t.ID, Framework: t.Execution.Framework, Design: t.Execution.ModelDesc,
		Labels: t.Execution.ModelLabels, Ready: t.Status == taskdom.Published}
	if len(t.Models.Input) > 0 && t.Models.Input[0] != nil {
		m.Parent = t.Models.Input[0].Model
	}
	if in.Tags != nil {
		m.Tags = domain.SortedTags(*in.Tags)
	}
	if in.SystemTags != nil {
		m.SystemTags = domain.SortedTags(*in.SystemTags)
	}
	m.Normalize()
	return m, env.DB.Models().Insert(ctx, q, m)
}
