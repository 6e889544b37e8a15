package queues

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/queues"
	"github.com/trove-ml/trove/internal/rpc"
)

type moveRequest struct {
	taskInQueueRequest
	// Count is how many places to move (default 1).
	Count *int `json:"count"`
}

func (r *moveRequest) Validate() error {
	if r.Count != nil && *r.Count < 1 {
		return apierr.Validation("count", "must be at least 1, got %d", *r.Count)
	}
	return nil
}

func (r *moveRequest) count() int {
	if r.Count == nil {
		return 1
	}
	return *r.Count
}

type moveResponse struct {
	Position int `json:"position"`
}

func (s *service) moveForward(ctx context.Context, c *rpc.Call, req *moveRequest) (*moveResponse, error) {
	return s.move(ctx, c, req.taskInQueueRequest, queues.Forward(req.count()))
}

func (s *service) moveBackward(ctx context.Context, c *rpc.Call, req *moveRequest) (*moveResponse, error) {
	return s.move(ctx, c, req.taskInQueueRequest, queues.Backward(req.count()))
}

func (s *service) moveToFront(ctx context.Context, c *rpc.Call, req *taskInQueueRequest) (*moveResponse, error) {
	return s.move(ctx, c, *req, queues.ToFront)
}

func (s *service) moveToBack(ctx context.Context, c *rpc.Call, req *taskInQueueRequest) (*moveResponse, error) {
	return s.move(ctx, c, *req, queues.ToBack)
}

func (s *service) move(ctx context.Context, c *rpc.Call, req taskInQueueRequest, target queues.Target) (*moveResponse, error) {
	pos, err := queues.Move(ctx, &s.d.Env, c.Company(), req.Queue, req.Task, target)
	if err != nil {
		return nil, err
	}
	return &moveResponse{Position: pos}, nil
}
