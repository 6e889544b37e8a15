package projects

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

type idsRequest struct {
	IDs []string `json:"ids"`
}

type updatedResponse struct {
	Updated int `json:"updated"`
}

func apiNotFound(err error, id string) error {
	return domain.NotFound(err, apierr.InvalidProjectID(id))
}

func (s *service) makePublic(ctx context.Context, c *rpc.Call, req *idsRequest) (*updatedResponse, error) {
	return s.setPublic(ctx, c, req.IDs, true)
}

func (s *service) makePrivate(ctx context.Context, c *rpc.Call, req *idsRequest) (*updatedResponse, error) {
	return s.setPublic(ctx, c, req.IDs, false)
}

// setPublic moves projects to the public company ("") remembering their
// origin, or back. All ids must qualify, else nothing changes.
func (s *service) setPublic(ctx context.Context, c *rpc.Call, ids []string, public bool) (*updatedResponse, error) {
	n := 0
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		var missing []string
		var recs []*store.Project
		for _, id := range ids {
			p, err := s.d.DB.Projects().GetForUpdate(ctx, q, id, domain.Visible(c.Company())...)
			switch {
			case err != nil:
				missing = append(missing, id)
			case public && p.Company != c.Company():
				missing = append(missing, id)
			case !public && (p.Company != "" || p.CompanyOrigin != c.Company()):
				missing = append(missing, id)
			default:
				recs = append(recs, p)
			}
		}
		if len(missing) > 0 {
			return apierr.InvalidProjectID(missing...)
		}
		for _, p := range recs {
			if public {
				p.CompanyOrigin, p.Company = p.Company, ""
			} else {
				p.Company, p.CompanyOrigin = p.CompanyOrigin, ""
			}
			if err := s.d.DB.Projects().Update(ctx, q, p); err != nil {
				return uniqueErr(err, p.Name)
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
