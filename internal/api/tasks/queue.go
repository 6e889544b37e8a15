package tasks

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

type enqueueRequest struct {
	statusRequest
	Queue     string `json:"queue"`
	QueueName string `json:"queue_name"`
}

type enqueueResponse struct {
	api.UpdateResult
	Queued int `json:"queued"`
}

func (s *service) enqueue(ctx context.Context, c *rpc.Call, req *enqueueRequest) (*enqueueResponse, error) {
	res, err := taskdom.EnqueueTask(ctx, &s.d.Env, taskdom.EnqueueRequest{StatusRequest: req.op(c), Queue: req.Queue, QueueName: req.QueueName})
	if err != nil {
		return nil, err
	}
	return &enqueueResponse{UpdateResult: *api.Updated(res), Queued: 1}, nil
}

type enqueueManyRequest struct {
	batchRequest
	Queue         string `json:"queue"`
	QueueName     string `json:"queue_name"`
	ValidateTasks bool   `json:"validate_tasks"`
}

func (s *service) enqueueMany(ctx context.Context, c *rpc.Call, req *enqueueManyRequest) (*api.BatchResult, error) {
	return api.RunBatch(ctx, req.IDs, func(ctx context.Context, id string) (map[string]any, error) {
		res, err := taskdom.EnqueueTask(ctx, &s.d.Env, taskdom.EnqueueRequest{StatusRequest: req.op(c, id), Queue: req.Queue, QueueName: req.QueueName,
			ValidateRefs: req.ValidateTasks})
		if err != nil {
			return nil, err
		}
		return map[string]any{"queued": true, "updated": res.Updated, "fields": res.Fields}, nil
	})
}

type dequeueRequest struct {
	statusRequest
	NewStatus           string `json:"new_status"`
	RemoveFromAllQueues bool   `json:"remove_from_all_queues"`
}

type dequeueResponse struct {
	api.UpdateResult
	Dequeued int `json:"dequeued"`
}

func (s *service) dequeue(ctx context.Context, c *rpc.Call, req *dequeueRequest) (*dequeueResponse, error) {
	res, err := taskdom.DequeueTask(ctx, &s.d.Env, taskdom.DequeueRequest{StatusRequest: req.op(c), NewStatus: req.NewStatus, RemoveFromAllQueues: req.RemoveFromAllQueues})
	if err != nil {
		return nil, err
	}
	return &dequeueResponse{UpdateResult: *api.Updated(res), Dequeued: 1}, nil
}

type dequeueManyRequest struct {
	batchRequest
	NewStatus           string `json:"new_status"`
	RemoveFromAllQueues bool   `json:"remove_from_all_queues"`
}

func (s *service) dequeueMany(ctx context.Context, c *rpc.Call, req *dequeueManyRequest) (*api.BatchResult, error) {
	return api.RunBatch(ctx, req.IDs, func(ctx context.Context, id string) (map[string]any, error) {
		res, err := taskdom.DequeueTask(ctx, &s.d.Env, taskdom.DequeueRequest{StatusRequest: req.op(c, id), NewStatus: req.NewStatus, RemoveFromAllQueues: req.RemoveFromAllQueues})
		if err != nil {
			return nil, err
		}
		return map[string]any{"dequeued": true, "updated": res.Updated, "fields": res.Fields}, nil
	})
}
