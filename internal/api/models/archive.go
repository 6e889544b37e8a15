package models

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

// archivedTag is the system tag that marks an archived model.
const archivedTag = "archived"

type idsRequest struct {
	IDs []string `json:"ids" required:"true"`
}

func (s *service) archiveMany(ctx context.Context, c *rpc.Call, req *idsRequest) (*api.BatchResult, error) {
	return s.setArchived(ctx, c, req.IDs, true)
}

func (s *service) unarchiveMany(ctx context.Context, c *rpc.Call, req *idsRequest) (*api.BatchResult, error) {
	return s.setArchived(ctx, c, req.IDs, false)
}

// setArchived adds or removes the archived system tag of each company
// model; items answer {id, archived} or {id, unarchived}.
func (s *service) setArchived(ctx context.Context, c *rpc.Call, ids []string, archived bool) (*api.BatchResult, error) {
	key := "archived"
	if !archived {
		key = "unarchived"
	}
	return api.RunBatch(ctx, ids, func(ctx context.Context, id string) (map[string]any, error) {
		err := s.d.DB.Tx(ctx, func(q store.Querier) error {
			m, err := s.loadWritable(ctx, q, c.Company(), id)
			if err != nil {
				return err
			}
			tags := make([]string, 0, len(m.SystemTags)+1)
			for _, t := range m.SystemTags {
				if t != archivedTag {
					tags = append(tags, t)
				}
			}
			if archived {
				tags = append(tags, archivedTag)
			}
			m.SystemTags = domain.SortedTags(tags)
			s.touch(m, c.User(), false)
			return s.d.DB.Models().Update(ctx, q, m)
		})
		if err != nil {
			return nil, err
		}
		return map[string]any{key: true}, nil
	})
}
