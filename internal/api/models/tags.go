package models

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/rpc"

	modeldom "github.com/trove-ml/trove/internal/models"
)

type updateTagsRequest struct {
	IDs        []string `json:"ids"`
	AddTags    []string `json:"add_tags"`
	RemoveTags []string `json:"remove_tags"`
}

func (r *updateTagsRequest) Validate() error {
	if len(r.IDs) == 0 {
		return apierr.Validation("ids", "no model ids provided for editing tags")
	}
	if len(r.AddTags) == 0 && len(r.RemoveTags) == 0 {
		return apierr.Validation("add_tags", "either add_tags or remove_tags should be provided")
	}
	return api.ValidateTags("add_tags", r.AddTags)
}

func (s *service) updateTags(ctx context.Context, c *rpc.Call, req *updateTagsRequest) (*updatedResponse, error) {
	n, err := modeldom.UpdateTags(ctx, &s.d.Env, actor(c), req.IDs, req.AddTags, req.RemoveTags)
	if err != nil {
		return nil, err
	}
	return &updatedResponse{Updated: n}, nil
}
