// Package organization serves organization.* operations: company-wide
// views over tasks and models.
package organization

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/rpc"
)

// Register adds the organization operations.
func Register(r *rpc.Registry, d *api.Deps) {
	s := &service{d}
	r.Add(
		rpc.Endpoint{Name: "organization.get_tags", Access: rpc.Read, Handler: rpc.Typed(s.getTags)},
		rpc.Endpoint{Name: "organization.get_user_companies", Access: rpc.Read, Handler: rpc.Typed(s.userCompanies)},
		rpc.Endpoint{Name: "organization.get_entities_count", MinVersion: "2.16", Access: rpc.Read, Handler: rpc.Typed(s.getEntitiesCount)},
		rpc.Endpoint{Name: "organization.prepare_download_for_get_all", MinVersion: "2.26", Access: rpc.Read, Handler: rpc.Typed(s.prepareDownload)},
		rpc.Endpoint{Name: "organization.download_for_get_all", MinVersion: "2.26", Access: rpc.Read, Handler: rpc.Typed(s.download), Streaming: true},
		rpc.Endpoint{Name: "organization.get_project_usages", MinVersion: "2.34", Access: rpc.Read, Handler: rpc.Typed(s.getProjectUsages)},
		// The name the web app's Workloads tab (clearml-web 2.4 and later)
		// calls; the reference server 2.3 knows only get_project_usages.
		rpc.Endpoint{Name: "organization.get_project_workloads", MinVersion: "2.34", Access: rpc.Read, Handler: rpc.Typed(s.getProjectUsages)},
	)
}

type service struct{ d *api.Deps }

type getTagsRequest struct {
	Filter        *api.TagFilter `json:"filter"`
	IncludeSystem bool           `json:"include_system"`
}

// getTags returns the tags used by the company's tasks and models.
func (s *service) getTags(ctx context.Context, c *rpc.Call, req *getTagsRequest) (*api.TagsResult, error) {
	return api.CollectTags(ctx, &s.d.Env, c.Company(), []string{"tasks", "models"}, nil, req.Filter, req.IncludeSystem)
}

type empty struct{}

type company struct {
	ID        string  `json:"id"`
	Name      string  `json:"name"`
	Allocated int     `json:"allocated"`
	Owners    []owner `json:"owners"`
}

type owner struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Avatar string `json:"avatar"`
}

type companiesResponse struct {
	Companies []company `json:"companies"`
}

func (s *service) userCompanies(ctx context.Context, c *rpc.Call, _ *empty) (*companiesResponse, error) {
	n, owners, err := auth.CompanyUsers(ctx, &s.d.Env, c.Company())
	if err != nil {
		return nil, err
	}
	out := []owner{}
	for _, o := range owners {
		out = append(out, owner{ID: o.ID, Name: o.Name, Avatar: ""})
	}
	return &companiesResponse{Companies: []company{{ID: c.Company(), Name: c.Identity.CompanyName, Allocated: n, Owners: out}}}, nil
}
