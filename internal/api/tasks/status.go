package tasks

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

// statusRequest carries the StatusChange fields of a state operation.
type statusRequest struct {
	Task          string `json:"task" required:"true"`
	Force         bool   `json:"force"`
	StatusReason  string `json:"status_reason"`
	StatusMessage string `json:"status_message"`
}

func (r *statusRequest) op(c *rpc.Call) taskdom.StatusRequest {
	return taskdom.StatusRequest{Company: c.Company(), User: c.User(), UserName: userNameOf(c), Task: r.Task,
		Force: r.Force, StatusReason: r.StatusReason, StatusMessage: r.StatusMessage}
}

// batchRequest carries the ids and StatusChange fields of a _many operation.
type batchRequest struct {
	IDs           []string `json:"ids" required:"true"`
	Force         bool     `json:"force"`
	StatusReason  string   `json:"status_reason"`
	StatusMessage string   `json:"status_message"`
}

func (r *batchRequest) op(c *rpc.Call, id string) taskdom.StatusRequest {
	return taskdom.StatusRequest{Company: c.Company(), User: c.User(), UserName: userNameOf(c), Task: id,
		Force: r.Force, StatusReason: r.StatusReason, StatusMessage: r.StatusMessage}
}

func userNameOf(c *rpc.Call) string {
	if c.Identity == nil {
		return ""
	}
	return c.Identity.UserName
}

// runStatus runs op on one task in its own transaction.
func (s *service) runStatus(ctx context.Context, op taskdom.StatusOp, r taskdom.StatusRequest) (*api.UpdateResult, error) {
	res, err := taskdom.RunStatus(ctx, &s.d.Env, op, r)
	if err != nil {
		return nil, err
	}
	return api.Updated(res), nil
}

// single adapts a state operation to a single-task endpoint.
func (s *service) single(op taskdom.StatusOp) func(ctx context.Context, c *rpc.Call, req *statusRequest) (*api.UpdateResult, error) {
	return func(ctx context.Context, c *rpc.Call, req *statusRequest) (*api.UpdateResult, error) {
		return s.runStatus(ctx, op, req.op(c))
	}
}

// many adapts a state operation to a _many endpoint: one transaction per id.
func (s *service) many(op taskdom.StatusOp) func(ctx context.Context, c *rpc.Call, req *batchRequest) (*api.BatchResult, error) {
	return func(ctx context.Context, c *rpc.Call, req *batchRequest) (*api.BatchResult, error) {
		return api.RunBatch(ctx, req.IDs, func(ctx context.Context, id string) (map[string]any, error) {
			res, err := s.runStatus(ctx, op, req.op(c, id))
			if err != nil {
				return nil, err
			}
			return map[string]any{"updated": res.Updated, "fields": res.Fields}, nil
		})
	}
}

type startedResponse struct {
	api.UpdateResult
	Started int `json:"started"`
}

func (s *service) started(ctx context.Context, c *rpc.Call, req *statusRequest) (*startedResponse, error) {
	res, err := s.runStatus(ctx, taskdom.Started, req.op(c))
	if err != nil {
		return nil, err
	}
	return &startedResponse{UpdateResult: *res, Started: res.Updated}, nil
}

type completedRequest struct {
	statusRequest
	Publish bool `json:"publish"`
}

type completedResponse struct {
	api.UpdateResult
	Published int `json:"published"`
}

// completed marks a task completed and, when asked, publishes it.
func (s *service) completed(ctx context.Context, c *rpc.Call, req *completedRequest) (*completedResponse, error) {
	res, err := taskdom.Complete(ctx, &s.d.Env, req.op(c), req.Publish)
	if err != nil {
		return nil, err
	}
	return &completedResponse{UpdateResult: *api.Updated(res.Update), Published: res.Published}, nil
}

type publishRequest struct {
	statusRequest
	PublishModel *bool `json:"publish_model"`
}

func (s *service) publish(ctx context.Context, c *rpc.Call, req *publishRequest) (*api.UpdateResult, error) {
	publishModel := req.PublishModel == nil || *req.PublishModel
	return s.runStatus(ctx, taskdom.PublishOp(publishModel), req.op(c))
}

type publishManyRequest struct {
	batchRequest
	PublishModel *bool `json:"publish_model"`
}

func (s *service) publishMany(ctx context.Context, c *rpc.Call, req *publishManyRequest) (*api.BatchResult, error) {
	publishModel := req.PublishModel == nil || *req.PublishModel
	return s.many(taskdom.PublishOp(publishModel))(ctx, c, &req.batchRequest)
}
