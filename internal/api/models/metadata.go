package models

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

type addMetadataRequest struct {
	Model           string       `json:"model" required:"true"`
	Metadata        api.Metadata `json:"metadata"`
	ReplaceMetadata bool         `json:"replace_metadata"`
}

func (r *addMetadataRequest) Validate() error {
	if !r.Metadata.Set || len(r.Metadata.Items) == 0 {
		return apierr.Validation("metadata", "at least one metadata item is required")
	}
	return nil
}

type updatedResponse struct {
	Updated int `json:"updated"`
}

func (s *service) addOrUpdateMetadata(ctx context.Context, c *rpc.Call, req *addMetadataRequest) (*updatedResponse, error) {
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		m, err := s.loadWritable(ctx, q, c.Company(), req.Model)
		if err != nil {
			return err
		}
		if req.ReplaceMetadata {
			m.Metadata = map[string]*store.MetadataItem{}
		}
		for k, it := range req.Metadata.Items {
			m.Metadata[k] = it
		}
		s.touch(m, c.User(), true)
		return s.d.DB.Models().Update(ctx, q, m)
	})
	if err != nil {
		return nil, err
	}
	return &updatedResponse{Updated: 1}, nil
}

type deleteMetadataRequest struct {
	Model string   `json:"model" required:"true"`
	Keys  []string `json:"keys" required:"true"`
}

func (r *deleteMetadataRequest) Validate() error {
	if len(r.Keys) == 0 {
		return apierr.Validation("keys", "at least one key is required")
	}
	return nil
}

func (s *service) deleteMetadata(ctx context.Context, c *rpc.Call, req *deleteMetadataRequest) (*updatedResponse, error) {
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		m, err := s.loadWritable(ctx, q, c.Company(), req.Model)
		if err != nil {
			return err
		}
		for _, k := range req.Keys {
			delete(m.Metadata, k)
		}
		s.touch(m, c.User(), true)
		return s.d.DB.Models().Update(ctx, q, m)
	})
	if err != nil {
		return nil, err
	}
	return &updatedResponse{Updated: 1}, nil
}
