package projects

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"
)

type tagsRequest struct {
	Projects      []string       `json:"projects"`
	Filter        *api.TagFilter `json:"filter"`
	IncludeSystem bool           `json:"include_system"`
}

func (s *service) getTaskTags(ctx context.Context, c *rpc.Call, req *tagsRequest) (*api.TagsResult, error) {
	return api.CollectTags(ctx, &s.d.Env, c.Company(), []string{"tasks"}, req.Projects, req.Filter, req.IncludeSystem)
}

func (s *service) getModelTags(ctx context.Context, c *rpc.Call, req *tagsRequest) (*api.TagsResult, error) {
	return api.CollectTags(ctx, &s.d.Env, c.Company(), []string{"models"}, req.Projects, req.Filter, req.IncludeSystem)
}
