package tasks

import (
	"context"

	"github.com/trove-ml/trove/internal/rpc"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

type createRequest struct {
	taskdom.Fields
}

func (r *createRequest) Validate() error { return validateFields(&r.Fields, true) }

type idResponse struct {
	ID string `json:"id"`
}

func (s *service) create(ctx context.Context, c *rpc.Call, req *createRequest) (*idResponse, error) {
	id, err := taskdom.CreateTask(ctx, &s.d.Env, c.Company(), c.User(), &req.Fields)
	if err != nil {
		return nil, err
	}
	return &idResponse{ID: id}, nil
}

type empty struct{}

// validate checks a task as create would, without saving it.
func (s *service) validate(ctx context.Context, c *rpc.Call, req *createRequest) (*empty, error) {
	if err := taskdom.ValidateTask(ctx, &s.d.Env, c.Company(), c.User(), &req.Fields); err != nil {
		return nil, err
	}
	return &empty{}, nil
}
