package users

import (
	"context"

	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/rpc"
	userdom "github.com/trove-ml/trove/internal/users"
)

type getByIDRequest struct {
	User string `json:"user" required:"true"`
}

type getByIDResponse struct {
	User *userOut `json:"user"`
}

func (s *service) getByID(ctx context.Context, c *rpc.Call, req *getByIDRequest) (*getByIDResponse, error) {
	u, err := userdom.Get(ctx, &s.d.Env, c.Identity, req.User)
	if err != nil {
		return nil, err
	}
	return &getByIDResponse{User: toWire(u)}, nil
}

type getAllRequest struct {
	query.Request
	// ActiveInProjects keeps users active in these projects (get_all_ex;
	// an empty list: in any project).
	ActiveInProjects *[]string `json:"active_in_projects"`
}

type getAllResponse struct {
	Users    []map[string]any `json:"users"`
	ScrollID *string          `json:"scroll_id,omitempty"`
}

func (s *service) getAll(ctx context.Context, c *rpc.Call, req *getAllRequest) (*getAllResponse, error) {
	return s.list(ctx, c, req, userdom.ListOptions{})
}

func (s *service) getAllEx(ctx context.Context, c *rpc.Call, req *getAllRequest) (*getAllResponse, error) {
	o := userdom.ListOptions{Ex: true}
	if req.ActiveInProjects != nil {
		o.ActiveIn = append([]string{}, *req.ActiveInProjects...)
	}
	return s.list(ctx, c, req, o)
}

func (s *service) list(ctx context.Context, c *rpc.Call, req *getAllRequest, o userdom.ListOptions) (*getAllResponse, error) {
	res, err := userdom.List(ctx, &s.d.Env, c.Company(), &req.Request, c.Body, o)
	if err != nil {
		return nil, err
	}
	return &getAllResponse{Users: res.Items, ScrollID: res.ScrollID}, nil
}
