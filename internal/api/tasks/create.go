package tasks

import (
	"context"
	"strings"

	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

type createRequest struct {
	taskFields
}

func (r *createRequest) Validate() error { return r.validate(true) }

type idResponse struct {
	ID string `json:"id"`
}

// newTask builds a task of the caller from the request fields.
func (s *service) newTask(c *rpc.Call, f *taskFields) *store.Task {
	now := s.d.Time()
	t := &store.Task{ID: ids.New(), Company: c.Company(), User: c.User(), Status: taskdom.Created,
		Created: now, LastUpdate: now, LastChange: now, LastChangedBy: c.User()}
	t.Normalize()
	f.apply(t, now)
	return t
}

func (s *service) create(ctx context.Context, c *rpc.Call, req *createRequest) (*idResponse, error) {
	t := s.newTask(c, &req.taskFields)
	if err := taskdom.Create(ctx, &s.d.Env, c.Company(), t, taskdom.AllRefs); err != nil {
		return nil, err
	}
	return &idResponse{ID: t.ID}, nil
}

type empty struct{}

// validate checks a task as create would, without saving it. A parent
// that refers to a deleted task is dropped first, as the reference does.
func (s *service) validate(ctx context.Context, c *rpc.Call, req *createRequest) (*empty, error) {
	if req.Parent != nil && strings.HasPrefix(*req.Parent, taskdom.DeletedPrefix) {
		req.Parent = nil
	}
	if err := taskdom.Validate(ctx, &s.d.Env, c.Company(), s.newTask(c, &req.taskFields)); err != nil {
		return nil, err
	}
	return &empty{}, nil
}

// visibleTask loads a task the caller may read (own company or public).
func (s *service) visibleTask(ctx context.Context, q store.Querier, c *rpc.Call, id string) (*store.Task, error) {
	return taskdom.Visible(ctx, &s.d.Env, q, c.Company(), id)
}
