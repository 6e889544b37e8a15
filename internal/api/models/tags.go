package models

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"

	modeldom "github.com/trove-ml/trove/internal/models"
)

type updateTagsRequest struct{ api.TagsUpdate }

func (s *service) updateTags(ctx context.Context, c *rpc.Call, req *updateTagsRequest) (*updatedResponse, error) {
	n, err := modeldom.UpdateTags(ctx, &s.d.Env, actor(c), req.IDs, req.AddTags, req.RemoveTags)
	if err != nil {
		return nil, err
	}
	return &updatedResponse{Updated: n}, nil
}
