package projects

import (
	"context"

	"github.com/trove-ml/trove/internal/rpc"

	projectdom "github.com/trove-ml/trove/internal/projects"
)

type metadataKeysRequest struct {
	Project            string `json:"project"`
	IncludeSubprojects *bool  `json:"include_subprojects"`
	Page               *int   `json:"page"`
	PageSize           *int   `json:"page_size"`
}

type metadataKeysResponse struct {
	Keys      []string `json:"keys"`
	Remaining int      `json:"remaining"`
	Total     int      `json:"total"`
}

// getModelMetadataKeys: without a project, every model (with
// subprojects) or the models without a project (without).
func (s *service) getModelMetadataKeys(ctx context.Context, c *rpc.Call, req *metadataKeysRequest) (*metadataKeysResponse, error) {
	page, err := projectdom.NewPage(req.Page, req.PageSize)
	if err != nil {
		return nil, err
	}
	scope := projectdom.Scope{Company: c.Company(), Projects: oneProject(req.Project),
		Subprojects: orTrue(req.IncludeSubprojects), EmptyMeansNone: true}
	res, err := projectdom.ModelMetadataKeys(ctx, &s.d.Env, scope, page)
	if err != nil {
		return nil, err
	}
	return &metadataKeysResponse{Keys: res.Keys, Remaining: res.Remaining, Total: res.Total}, nil
}

type metadataValuesRequest struct {
	Projects           []string `json:"projects"`
	Key                string   `json:"key" required:"true"`
	AllowPublic        *bool    `json:"allow_public"`
	IncludeSubprojects *bool    `json:"include_subprojects"`
	Page               *int     `json:"page"`
	PageSize           *int     `json:"page_size"`
}

type metadataValuesResponse struct {
	Total  int      `json:"total"`
	Values []string `json:"values"`
}

// getModelMetadataValues: projects absent (not an empty list) without
// subprojects selects the models without a project, as the reference.
func (s *service) getModelMetadataValues(ctx context.Context, c *rpc.Call, req *metadataValuesRequest) (*metadataValuesResponse, error) {
	page, err := projectdom.NewPage(req.Page, req.PageSize)
	if err != nil {
		return nil, err
	}
	scope := projectdom.Scope{Company: c.Company(), Projects: req.Projects, Subprojects: orTrue(req.IncludeSubprojects),
		EmptyMeansNone: req.Projects == nil}
	total, values, err := projectdom.ModelMetadataValues(ctx, &s.d.Env, scope, orTrue(req.AllowPublic), req.Key, page)
	if err != nil {
		return nil, err
	}
	return &metadataValuesResponse{Total: total, Values: values}, nil
}
