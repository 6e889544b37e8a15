package projects

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"

	projectdom "github.com/trove-ml/trove/internal/projects"
)

type updateRequest struct {
	Project string `json:"project" required:"true"`
	projectdom.Patch
}

func (r *updateRequest) Validate() error { return api.ValidateTagPatch(r.Tags, r.SystemTags) }

func (s *service) update(ctx context.Context, c *rpc.Call, req *updateRequest) (*api.UpdateResult, error) {
	res, err := projectdom.Update(ctx, &s.d.Env, c.Company(), req.Project, req.Patch)
	if err != nil {
		return nil, err
	}
	return api.Updated(res), nil
}

type moveRequest struct {
	Project     string  `json:"project" required:"true"`
	NewLocation *string `json:"new_location"`
}

type moveResponse struct {
	Moved int `json:"moved"`
}

func (s *service) move(ctx context.Context, c *rpc.Call, req *moveRequest) (*moveResponse, error) {
	moved, err := projectdom.Move(ctx, &s.d.Env, c.Company(), c.User(), req.Project, req.NewLocation)
	if err != nil {
		return nil, err
	}
	return &moveResponse{Moved: moved}, nil
}

type mergeRequest struct {
	Project            string `json:"project" required:"true"`
	DestinationProject string `json:"destination_project"`
}

type mergeResponse struct {
	MovedEntities int `json:"moved_entities"`
	MovedProjects int `json:"moved_projects"`
}

func (s *service) merge(ctx context.Context, c *rpc.Call, req *mergeRequest) (*mergeResponse, error) {
	res, err := projectdom.Merge(ctx, &s.d.Env, c.Company(), req.Project, req.DestinationProject)
	if err != nil {
		return nil, err
	}
	return &mergeResponse{MovedEntities: res.Entities, MovedProjects: res.Projects}, nil
}
