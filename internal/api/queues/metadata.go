package queues

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/queues"
	"github.com/trove-ml/trove/internal/rpc"
)

type addOrUpdateMetadataRequest struct {
	Queue string `json:"queue" required:"true"`
	api.MetadataAdd
}

type updatedResponse struct {
	Updated int `json:"updated"`
}

func (s *service) addOrUpdateMetadata(ctx context.Context, c *rpc.Call, req *addOrUpdateMetadataRequest) (*updatedResponse, error) {
	if err := queues.PutMetadata(ctx, &s.d.Env, c.Company(), req.Queue, req.Metadata.Items, req.ReplaceMetadata); err != nil {
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
	n, err := queues.DropMetadata(ctx, &s.d.Env, c.Company(), req.Queue, req.Keys)
	if err != nil {
		return nil, err
	}
	return &updatedResponse{Updated: n}, nil
}
