package models

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"

	modeldom "github.com/trove-ml/trove/internal/models"
)

type addMetadataRequest struct {
	Model string `json:"model" required:"true"`
	api.MetadataAdd
}

type updatedResponse struct {
	Updated int `json:"updated"`
}

func (s *service) addOrUpdateMetadata(ctx context.Context, c *rpc.Call, req *addMetadataRequest) (*updatedResponse, error) {
	if err := modeldom.AddMetadata(ctx, &s.d.Env, actor(c), req.Model, req.Metadata.Items, req.ReplaceMetadata); err != nil {
		return nil, err
	}
	return &updatedResponse{Updated: 1}, nil
}

type deleteMetadataRequest struct {
	Model string `json:"model" required:"true"`
	api.MetadataKeys
}

func (s *service) deleteMetadata(ctx context.Context, c *rpc.Call, req *deleteMetadataRequest) (*updatedResponse, error) {
	if err := modeldom.DeleteMetadata(ctx, &s.d.Env, actor(c), req.Model, req.Keys); err != nil {
		return nil, err
	}
	return &updatedResponse{Updated: 1}, nil
}
