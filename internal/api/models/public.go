package models

import (
	"context"

	"github.com/trove-ml/trove/internal/rpc"

	modeldom "github.com/trove-ml/trove/internal/models"
)

type publicRequest struct {
	IDs []string `json:"ids"`
}

func (s *service) makePublic(ctx context.Context, c *rpc.Call, req *publicRequest) (*updatedResponse, error) {
	return s.setPublic(ctx, c, req.IDs, true)
}

func (s *service) makePrivate(ctx context.Context, c *rpc.Call, req *publicRequest) (*updatedResponse, error) {
	return s.setPublic(ctx, c, req.IDs, false)
}

func (s *service) setPublic(ctx context.Context, c *rpc.Call, ids []string, public bool) (*updatedResponse, error) {
	n, err := modeldom.SetPublic(ctx, &s.d.Env, actor(c), ids, public)
	if err != nil {
		return nil, err
	}
	return &updatedResponse{Updated: n}, nil
}
