package tasks

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/rpc"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

// updateTagsRequest edits the tags of several tasks at once.
type updateTagsRequest struct {
	IDs        []string `json:"ids"`
	AddTags    []string `json:"add_tags"`
	RemoveTags []string `json:"remove_tags"`
}

func (r *updateTagsRequest) Validate() error {
	if len(r.IDs) == 0 {
		return apierr.Validation("ids", "no task ids provided for editing tags")
	}
	if len(r.AddTags) == 0 && len(r.RemoveTags) == 0 {
		return apierr.Validation("add_tags", "either add_tags or remove_tags should be provided")
	}
	return api.ValidateTags("add_tags", r.AddTags)
}

type updateTagsResponse struct {
	Updated int `json:"updated"`
}

func (s *service) updateTags(ctx context.Context, c *rpc.Call, req *updateTagsRequest) (*updateTagsResponse, error) {
	n, err := taskdom.UpdateTags(ctx, &s.d.Env, c.Company(), c.User(), req.IDs, req.AddTags, req.RemoveTags)
	if err != nil {
		return nil, err
	}
	return &updateTagsResponse{Updated: n}, nil
}
