package tasks

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

type updateTagsRequest struct{ api.TagsUpdate }

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
