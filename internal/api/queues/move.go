package queues

import (
	"context"
	"errors"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/queues"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
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

// The targets of the move operations, as indexes into the queue (0 is the
// top). The store clamps them to the queue.
func toFront(int, int) int { return 0 }
func toBack(_, n int) int  { return n - 1 }
func forward(by int) func(int, int) int {
	return func(cur, _ int) int { return cur - by }
}
func backward(by int) func(int, int) int {
	return func(cur, _ int) int { return cur + by }
}

func (s *service) moveForward(ctx context.Context, c *rpc.Call, req *moveRequest) (*moveResponse, error) {
	return s.move(ctx, c, req.taskInQueueRequest, forward(req.count()))
}

func (s *service) moveBackward(ctx context.Context, c *rpc.Call, req *moveRequest) (*moveResponse, error) {
	return s.move(ctx, c, req.taskInQueueRequest, backward(req.count()))
}

func (s *service) moveToFront(ctx context.Context, c *rpc.Call, req *taskInQueueRequest) (*moveResponse, error) {
	return s.move(ctx, c, *req, toFront)
}

func (s *service) moveToBack(ctx context.Context, c *rpc.Call, req *taskInQueueRequest) (*moveResponse, error) {
	return s.move(ctx, c, *req, toBack)
}

// move puts a task at a new place in its queue and answers the place it
// ended at (0 is the top; a target beyond either end stops there).
func (s *service) move(ctx context.Context, c *rpc.Call, req taskInQueueRequest, target func(cur, n int) int) (*moveResponse, error) {
	var pos int
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		if _, err := queues.GetForUpdate(ctx, s.d.DB, q, c.Company(), req.Queue); err != nil {
			return err
		}
		var err error
		pos, err = s.d.DB.MoveQueueEntry(ctx, q, req.Queue, req.Task, target)
		if errors.Is(err, store.ErrNotQueued) {
			return apierr.TaskNotQueued(req.Queue, req.Task)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return &moveResponse{Position: pos}, nil
}
