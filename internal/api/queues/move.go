package queues

import (
	"context"

	"github.com/trove-ml/trove/internal/queues"
	"github.com/trove-ml/trove/internal/rpc"
)

type moveRequest struct {
	taskInQueueRequest
	// Count is how many places to move (default 1). A negative count moves
	// the other way, as the reference does: the ClearML web app's drag
	// sends move_task_backward with a negative count to move a task up.
	Count *int `json:"count"`
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
