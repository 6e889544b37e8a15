package models

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"

	modeldom "github.com/trove-ml/trove/internal/models"
)

type deleteRequest struct {
	Model string `json:"model" required:"true"`
	Force bool   `json:"force"`
	// DeleteExternalArtifacts (default true) deletes the weights file when
	// this server stores it.
	DeleteExternalArtifacts *bool `json:"delete_external_artifacts"`
}

type deleteResponse struct {
	Deleted bool   `json:"deleted"`
	URL     string `json:"url"`
}

func (s *service) delete(ctx context.Context, c *rpc.Call, req *deleteRequest) (*deleteResponse, error) {
	url, err := modeldom.Delete(ctx, &s.d.Env, actor(c), req.Model, req.Force, api.DeleteFiles(req.DeleteExternalArtifacts))
	if err != nil {
		return nil, err
	}
	return &deleteResponse{Deleted: true, URL: url}, nil
}

type deleteManyRequest struct {
	IDs                     []string `json:"ids" required:"true"`
	Force                   bool     `json:"force"`
	DeleteExternalArtifacts *bool    `json:"delete_external_artifacts"`
}

func (s *service) deleteMany(ctx context.Context, c *rpc.Call, req *deleteManyRequest) (*api.BatchResult, error) {
	return api.RunBatch(ctx, req.IDs, func(ctx context.Context, id string) (map[string]any, error) {
		url, err := modeldom.Delete(ctx, &s.d.Env, actor(c), id, req.Force, api.DeleteFiles(req.DeleteExternalArtifacts))
		if err != nil {
			return nil, err
		}
		return map[string]any{"deleted": true, "url": url}, nil
	})
}
