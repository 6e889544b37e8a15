package queues

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/queues"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

type addOrUpdateMetadataRequest struct {
	Queue string `json:"queue" required:"true"`
	api.MetadataAdd
}

type updatedResponse struct {
	Updated int `json:"updated"`
}

func (s *service) addOrUpdateMetadata(ctx context.Context, c *rpc.Call, req *addOrUpdateMetadataRequest) (*updatedResponse, error) {
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		qu, err := queues.GetForUpdate(ctx, s.d.DB, q, c.Company(), req.Queue)
		if err != nil {
			return err
		}
		qu.Metadata = domain.PutMetadata(qu.Metadata, req.Metadata.Items, req.ReplaceMetadata)
		qu.LastUpdate = s.d.Time()
		return s.d.DB.Queues().Update(ctx, q, qu)
	})
	if err != nil {
		return nil, err
	}
	return &updatedResponse{Updated: 1}, nil
}

type deleteMetadataRequest struct {
	Queue string `json:"queue" required:"true"`
	api.MetadataKeys
}

// deleteMetadata answers updated 0 (and writes nothing) when none of the
// keys was there.
func (s *service) deleteMetadata(ctx context.Context, c *rpc.Call, req *deleteMetadataRequest) (*updatedResponse, error) {
	updated := 0
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		qu, err := queues.GetForUpdate(ctx, s.d.DB, q, c.Company(), req.Queue)
		if err != nil {
			return err
		}
		if !domain.DropMetadata(qu.Metadata, req.Keys) {
			return nil
		}
		updated = 1
		qu.LastUpdate = s.d.Time()
		return s.d.DB.Queues().Update(ctx, q, qu)
	})
	if err != nil {
		return nil, err
	}
	return &updatedResponse{Updated: updated}, nil
}
