package models

import (
	"context"
	"fmt"
	"strings"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/taskops"
)

// outputModelName is the name of the output entry update_for_task writes.
const outputModelName = "Output Model"

type updateForTaskRequest struct {
	Task            string    `json:"task" required:"true"`
	URI             string    `json:"uri"`
	OverrideModelID string    `json:"override_model_id"`
	Comment         *string   `json:"comment"`
	Iteration       *int64    `json:"iteration"`
	Name            *string   `json:"name"`
	Tags            *[]string `json:"tags"`
	SystemTags      *[]string `json:"system_tags"`
}

func (r *updateForTaskRequest) Validate() error {
	if (r.URI == "") == (r.OverrideModelID == "") {
		return apierr.New(400, 11, "Missing required fields (exactly one field is required)").
			With("fields", []string{"uri", "override_model_id"})
	}
	if r.Tags != nil {
		if err := api.ValidateTags("tags", *r.Tags); err != nil {
			return err
		}
	}
	if r.SystemTags != nil {
		return api.ValidateTags("system_tags", *r.SystemTags)
	}
	return nil
}

// updateForTaskResponse carries every field the seeds list: created, fields,
// id, updated. updated and fields describe changes to an existing model, so
// they are 0 and {} when a model is created or only pointed at.
type updateForTaskResponse struct {
	ID      string         `json:"id"`
	Created bool           `json:"created"`
	Updated int            `json:"updated"`
	Fields  map[string]any `json:"fields"`
}

// updateForTask records the output model of a created or in_progress
// task, the pre-2.13 way: override_model_id makes an existing model the
// task's output; uri updates the task's last output model, or creates
// one from the task's execution when it has none. The reference stopped
// serving it after 2.13; Trove serves it at every version (rulings).
func (s *service) updateForTask(ctx context.Context, c *rpc.Call, req *updateForTaskRequest) (*updateForTaskResponse, error) {
	var resp *updateForTaskResponse
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		t, err := taskops.LoadWritable(ctx, &s.d.Env, q, c.Company(), req.Task)
		if err != nil {
			return err
		}
		if t.Status != taskops.Created && t.Status != taskops.InProgress {
			return apierr.InvalidTaskStatus("model can only be updated for tasks in the [created, in_progress] states").
				With("id", t.ID, "status", t.Status)
		}
		var m *store.Model
		created := false
		switch {
		case req.OverrideModelID != "":
			if m, err = s.loadWritable(ctx, q, c.Company(), req.OverrideModelID); err != nil {
				return err
			}
		case len(t.Models.Output) > 0 && t.Models.Output[len(t.Models.Output)-1] != nil:
			id := t.Models.Output[len(t.Models.Output)-1].Model
			if m, err = s.loadWritable(ctx, q, c.Company(), id); err != nil {
				return err
			}
			res, err := s.applyPatch(ctx, q, c, m, req.patchFor(t))
			if err != nil {
				return err
			}
			resp = &updateForTaskResponse{ID: m.ID, Updated: res.Updated, Fields: res.Fields}
			return nil
		default:
			if m, err = s.modelFromTask(ctx, q, c, t, req); err != nil {
				return err
			}
			created = true
		}
		now := s.d.Time()
		t.Models.Output = []*store.TaskModelItem{{Name: outputModelName, Model: m.ID, Updated: &now}}
		if req.Iteration != nil {
			t.LastIteration = max(t.LastIteration, *req.Iteration)
		}
		t.LastUpdate, t.LastChange, t.LastChangedBy = now, now, c.User()
		if err := s.d.DB.Tasks().Update(ctx, q, t); err != nil {
			return err
		}
		resp = &updateForTaskResponse{ID: m.ID, Created: created, Fields: map[string]any{}}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return resp, nil
}

// defaults fills name and comment from the task when not given.
func (r *updateForTaskRequest) defaults(t *store.Task) (name, comment string) {
	name, comment = t.Name, fmt.Sprintf("Created by task `%s` (%s)", t.Name, t.ID)
	if r.Name != nil {
		name = *r.Name
	}
	if r.Comment != nil {
		comment = *r.Comment
	}
	return name, comment
}

// patchFor is the update of the task's existing output model.
func (r *updateForTaskRequest) patchFor(t *store.Task) *patch {
	name, comment := r.defaults(t)
	uri := r.URI
	return &patch{Name: &name, Comment: &comment, URI: &uri, Tags: r.Tags, SystemTags: r.SystemTags,
		Iteration: r.Iteration, Task: &t.ID}
}

// modelFromTask creates the task's output model from its execution.
func (s *service) modelFromTask(ctx context.Context, q store.Querier, c *rpc.Call, t *store.Task, r *updateForTaskRequest) (*store.Model, error) {
	name, comment := r.defaults(t)
	if name = strings.TrimSpace(name); name == "" {
		return nil, apierr.Validation("name", "must not be empty")
	}
	now := s.d.Time()
	m := &store.Model{ID: ids.New(), Company: c.Company(), User: c.User(), Name: name, Created: now,
		LastUpdate: now, LastChange: now, LastChangedBy: c.User(), URI: r.URI, Comment: &comment,
		Project: t.Project, Task: t.ID, Framework: t.Execution.Framework, Design: t.Execution.ModelDesc,
		Labels: t.Execution.ModelLabels, Ready: t.Status == taskops.Published}
	if len(t.Models.Input) > 0 && t.Models.Input[0] != nil {
		m.Parent = t.Models.Input[0].Model
	}
	if r.Tags != nil {
		m.Tags = domain.SortedTags(*r.Tags)
	}
	if r.SystemTags != nil {
		m.SystemTags = domain.SortedTags(*r.SystemTags)
	}
	m.Normalize()
	return m, s.d.DB.Models().Insert(ctx, q, m)
}
