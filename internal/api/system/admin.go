package system

import (
	"context"
	"net/mail"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/rpc"
)

// Administration of users by admins (the endpoints admit privileged roles
// only).

type createUserRequest struct {
	Name       string `json:"name" required:"true"`
	Company    string `json:"company" required:"true"`
	Email      string `json:"email" required:"true"`
	Role       string `json:"role"`
	GivenName  string `json:"given_name"`
	FamilyName string `json:"family_name"`
	Avatar     string `json:"avatar"`
}

func (r *createUserRequest) Validate() error {
	if _, err := mail.ParseAddress(r.Email); err != nil {
		return apierr.Validation("email", "not an email address: %q", r.Email)
	}
	if r.Role != "" && !auth.ValidRole(r.Role) {
		return apierr.Validation("role", "unknown role %q", r.Role)
	}
	return nil
}

type createUserResponse struct {
	ID string `json:"id"`
}

func (s *service) createUser(ctx context.Context, c *rpc.Call, req *createUserRequest) (*createUserResponse, error) {
	id, err := auth.CreateUser(ctx, &s.d.Env, c.Identity, auth.NewUser{Name: req.Name, Company: req.Company, Role: req.Role,
		Email: req.Email, GivenName: req.GivenName, FamilyName: req.FamilyName, Avatar: req.Avatar})
	if err != nil {
		return nil, err
	}
	return &createUserResponse{ID: id}, nil
}

type editUserRequest struct {
	User string `json:"user" required:"true"`
	Role string `json:"role"`
}

func (s *service) editUser(ctx context.Context, c *rpc.Call, req *editUserRequest) (*api.UpdateResult, error) {
	up, err := auth.EditUser(ctx, &s.d.Env, c.Identity, req.User, req.Role)
	if err != nil {
		return nil, err
	}
	s.d.Auth.ForgetUser(req.User)
	return api.Updated(up), nil
}
