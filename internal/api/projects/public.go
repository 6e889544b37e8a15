package projects

import (
	"context"

	"github.com/trove-ml/trove/internal/rpc"

	projectdom "github.com/trove-ml/trove/internal/projects"
)

type idsRequest struct {
	IDs []string `json:"ids"`
}

type updatedResponse struct {
	Updated int `json:"updated"`
}

func (s *service) makePublic(ctx context.Context, c *rpc.Call, req *idsRequest) (*updatedResponse, error) {
	n, err := projectdom.SetPublic(ctx, &s.d.Env, c.Company(), req.IDs, true)
	if err != nil {
		return nil, err
	}
	return &updatedResponse{Updated: n}, nil
}

func (s *service) makePrivate(ctx context.Context, c *rpc.Call, req *idsRequest) (*updatedResponse, error) {
	n, err := projectdom.SetPublic(ctx, &s.d.Env, c.Company(), req.IDs, false)
	if err != nil {
		return nil, err
	}
	return &updatedResponse{Updated: n}, nil
}
