package models

import (
	"context"
	"errors"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
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

// setPublic moves models to the public company ("") remembering their
// origin, or back to the origin. Every id must qualify (a model of the
// caller's company, or a public model the caller's company published),
// else the call fails with 400/201 naming the others and nothing changes.
func (s *service) setPublic(ctx context.Context, c *rpc.Call, ids []string, public bool) (*updatedResponse, error) {
	n := 0
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		var missing []string
		var recs []*store.Model
		for _, id := range ids {
			m, err := s.d.DB.Models().GetForUpdate(ctx, q, id, domain.Visible(c.Company())...)
			switch {
			case err != nil && !errors.Is(err, store.ErrNotFound):
				return err
			case err != nil:
				missing = append(missing, id)
			case public && m.Company != c.Company():
				missing = append(missing, id)
			case !public && (m.Company != "" || m.CompanyOrigin != c.Company()):
				missing = append(missing, id)
			default:
				recs = append(recs, m)
			}
		}
		if len(missing) > 0 {
			return apierr.InvalidModelID(missing...)
		}
		for _, m := range recs {
			if public {
				m.CompanyOrigin, m.Company = m.Company, ""
			} else {
				m.Company, m.CompanyOrigin = m.CompanyOrigin, ""
			}
			s.touch(m, c.User(), false)
			if err := s.d.DB.Models().Update(ctx, q, m); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &updatedResponse{Updated: n}, nil
}
