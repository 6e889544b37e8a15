package models

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/rpc"

	modeldom "github.com/trove-ml/trove/internal/models"
)

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
		return apierr.ExactlyOneOf("uri", "override_model_id")
	}
	return api.ValidateTagPatch(r.Tags, r.SystemTags)
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

// updateForTask records the output model of a task the pre-2.13 way. The
// reference stopped serving it after 2.13; Trove serves it at every
// version (rulings).
func (s *service) updateForTask(ctx context.Context, c *rpc.Call, req *updateForTaskRequest) (*updateForTaskResponse, error) {
	res, err := modeldom.UpdateForTask(ctx, &s.d.Env, actor(c), modeldom.ForTaskInput{Task: req.Task, URI: req.URI,
		OverrideModelID: req.OverrideModelID, Comment: req.Comment, Name: req.Name, Iteration: req.Iteration,
		Tags: req.Tags, SystemTags: req.SystemTags})
	if err != nil {
		return nil, err
	}
	resp := &updateForTaskResponse{ID: res.ID, Created: res.Created, Fields: map[string]any{}}
	if res.Update != nil {
		resp.Updated, resp.Fields = res.Update.Updated, res.Update.Fields
	}
	return resp, nil
}
