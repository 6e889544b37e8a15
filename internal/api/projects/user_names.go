package projects

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/users"
)

type getUserNamesRequest struct {
	Projects           []string `json:"projects"`
	IncludeSubprojects *bool    `json:"include_subprojects"`
	Entity             string   `json:"entity"`
}

func (r *getUserNamesRequest) Validate() error {
	if r.Entity != "" && r.Entity != "task" && r.Entity != "model" {
		return apierr.Validation("entity", "must be task or model, got %q", r.Entity)
	}
	return nil
}

type getUserNamesResponse struct {
	Users []users.IDName `json:"users"`
}

// getUserNames names the users who created the tasks (or models) of the
// projects, for the app's "user" filters.
func (s *service) getUserNames(ctx context.Context, c *rpc.Call, req *getUserNamesRequest) (*getUserNamesResponse, error) {
	sub := req.IncludeSubprojects == nil || *req.IncludeSubprojects
	list, err := users.NamesInProjects(ctx, &s.d.Env, c.Company(), req.Projects, sub, req.Entity == "model")
	if err != nil {
		return nil, err
	}
	return &getUserNamesResponse{Users: list}, nil
}
