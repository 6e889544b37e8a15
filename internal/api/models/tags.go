package models

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
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

// updateTags adds and removes tags of company models in one transaction;
// as in the reference, each model counts once per list given. Unknown
// ids fail the call and nothing changes.
func (s *service) updateTags(ctx context.Context, c *rpc.Call, req *updateTagsRequest) (*updatedResponse, error) {
	n := 0
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		recs, err := s.loadAllWritable(ctx, q, c.Company(), req.IDs)
		if err != nil {
			return err
		}
		remove := map[string]bool{}
		for _, t := range req.RemoveTags {
			remove[t] = true
		}
		for _, m := range recs {
			var tags []string
			for _, t := range append(m.Tags, req.AddTags...) {
				if !remove[t] {
					tags = append(tags, t)
				}
			}
			m.Tags = domain.SortedTags(tags)
			s.touch(m, c.User(), false)
			if err := s.d.DB.Models().Update(ctx, q, m); err != nil {
				return err
			}
		}
		for _, list := range [][]string{req.AddTags, req.RemoveTags} {
			if len(list) > 0 {
				n += len(recs)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &updatedResponse{Updated: n}, nil
}

// loadAllWritable loads company models for writing; any id that is not
// one fails with 400/201 naming the missing ids.
func (s *service) loadAllWritable(ctx context.Context, q store.Querier, company string, ids []string) ([]*store.Model, error) {
	var recs []*store.Model
	var missing []string
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		m, err := s.loadWritable(ctx, q, company, id)
		if apierr.As(err) != nil {
			missing = append(missing, id)
			continue
		}
		if err != nil {
			return nil, err
		}
		recs = append(recs, m)
	}
	if len(missing) > 0 {
		return nil, apierr.InvalidModelID(missing...)
	}
	return recs, nil
}
