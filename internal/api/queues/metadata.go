package queues

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/queues"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

type addOrUpdateMetadataRequest struct {
	Queue           string       `json:"queue" required:"true"`
	Metadata        api.Metadata `json:"metadata"`
	ReplaceMetadata bool         `json:"replace_metadata"`
}

func (r *addOrUpdateMetadataRequest) Validate() error {
	if len(r.Metadata.Items) == 0 {
		return apierr.Validation("metadata", "at least one item is required")
	}
	return nil
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
		if req.ReplaceMetadata {
			qu.Metadata = map[string]*store.MetadataItem{}
		}
		for k, it := range req.Metadata.Items {
			qu.Metadata[k] = it
		}
		qu.LastUpdate = s.d.Time()
		return s.d.DB.Queues().Update(ctx, q, qu)
	})
	if err != nil {
		return nil, err
	}
	return &updatedResponse{Updated: 1}, nil
}

type deleteMetadataRequest struct {
	Queue string   `json:"queue" required:"true"`
	Keys  []string `json:"keys" required:"true"`
}

func (r *deleteMetadataRequest) Validate() error {
	if len(r.Keys) == 0 {
		return apierr.Validation("keys", "at least one key is required")
	}
	return nil
}

func (s *service) deleteMetadata(ctx context.Context, c *rpc.Call, req *deleteMetadataRequest) (*updatedResponse, error) {
	updated := 0
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		qu, err := queues.GetForUpdate(ctx, s.d.DB, q, c.Company(), req.Queue)
		if err != nil {
			return err
		}
		for _, k := range req.Keys {
			if _, ok := qu.Metadata[k]; ok {
				delete(qu.Metadata, k)
				updated = 1
			}
		}
		if updated == 0 {
			return nil
		}
		qu.LastUpdate = s.d.Time()
		return s.d.DB.Queues().Update(ctx, q, qu)
	})
	if err != nil {
		return nil, err
	}
	return &updatedResponse{Updated: updated}, nil
}
