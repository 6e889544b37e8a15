package models

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"

	modeldom "github.com/trove-ml/trove/internal/models"
)

type idsRequest struct {
	IDs []string `json:"ids" required:"true"`
}

func (s *service) archiveMany(ctx context.Context, c *rpc.Call, req *idsRequest) (*api.BatchResult, error) {
	return s.setArchived(ctx, c, req.IDs, true)
}

func (s *service) unarchiveMany(ctx context.Context, c *rpc.Call, req *idsRequest) (*api.BatchResult, error) {
	return s.setArchived(ctx, c, req.IDs, false)
}

// setArchived archives or unarchives each company model; items answer
// {id, archived} or {id, unarchived}.
func (s *service) setArchived(ctx context.Context, c *rpc.Call, ids []string, archived bool) (*api.BatchResult, error) {
	key := "archived"
	if !archived {
		key = "unarchived"
	}
	return api.RunBatch(ctx, ids, func(ctx context.Context, id string) (map[string]any, error) {
		if err := modeldom.SetArchived(ctx, &s.d.Env, actor(c), id, archived); err != nil {
			return nil, err
		}
		return map[string]any{key: true}, nil
	})
}
