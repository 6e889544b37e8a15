package tasks

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
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

// statusOp is a state operation of taskdom.
type statusOp func(ctx context.Context, d *domain.Env, q store.Querier, r taskdom.StatusRequest) (*domain.Update, error)

// runStatus runs op in one transaction.
func (s *service) runStatus(ctx context.Context, op statusOp, r taskdom.StatusRequest) (*api.UpdateResult, error) {
	var res *domain.Update
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		var err error
		res, err = op(ctx, &s.d.Env, q, r)
		return err
	})
	if err != nil {
		return nil, err
	}
	return api.Updated(res), nil
}

// single adapts a state operation to a single-task endpoint.
func (s *service) single(op statusOp) func(ctx context.Context, c *rpc.Call, req *statusRequest) (*api.UpdateResult, error) {
	return func(ctx context.Context, c *rpc.Call, req *statusRequest) (*api.UpdateResult, error) {
		return s.runStatus(ctx, op, req.op(c))
	}
}

// many adapts a state operation to a _many endpoint: one transaction per id.
func (s *service) many(op statusOp) func(ctx context.Context, c *rpc.Call, req *batchRequest) (*api.BatchResult, error) {
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
	return s.runStatus(ctx, func(ctx context.Context, d *domain.Env, q store.Querier, r taskdom.StatusRequest) (*domain.Update, error) {
		return taskdom.Publish(ctx, d, q, r.Company, r.User, r.Task, r.Force, publishModel, r.StatusReason, r.StatusMessage)
	}, req.op(c))
}

type publishManyRequest struct {
	batchRequest
	PublishModel *bool `json:"publish_model"`
}

func (s *service) publishMany(ctx context.Context, c *rpc.Call, req *publishManyRequest) (*api.BatchResult, error) {
	publishModel := req.PublishModel == nil || *req.PublishModel
	return s.many(func(ctx context.Context, d *domain.Env, q store.Querier, r taskdom.StatusRequest) (*domain.Update, error) {
		return taskdom.Publish(ctx, d, q, r.Company, r.User, r.Task, r.Force, publishModel, r.StatusReason, r.StatusMessage)
	})(ctx, c, &req.batchRequest)
}
