package models

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"

	modeldom "github.com/trove-ml/trove/internal/models"
)

// storedItems makes the items of model lists and single reads: a model
// answers its stored row.
var storedItems = api.StoredItems[store.Model]()

// listRequest is ModelsQuery plus the get_all extras.
type listRequest struct {
	query.Request
	IncludeSubprojects bool `json:"include_subprojects"`
	// Ready is read by the query from the body; declared here so that a
	// value that is not a boolean is refused while decoding.
	Ready *bool `json:"ready"`
}

type listResponse struct {
	Models   []map[string]any `json:"models"`
	ScrollID *string          `json:"scroll_id,omitempty"`
}

// list runs a ModelsQuery for the caller and shapes its items for the
// caller's version.
func (s *service) list(ctx context.Context, c *rpc.Call, req *listRequest, in modeldom.ListInput) (*listResponse, error) {
	if err := api.ScrollAlways(&req.Request); err != nil {
		return nil, err
	}
	in.Company, in.Request, in.Body, in.IncludeSubprojects = c.Company(), &req.Request, c.Body, req.IncludeSubprojects
	in.Convert = storedItems
	res, err := modeldom.List(ctx, &s.d.Env, in)
	if err != nil {
		return nil, err
	}
	api.ShapeMetadata(c, res.Items)
	return &listResponse{Models: res.Items, ScrollID: res.ScrollID}, nil
}

func (s *service) getAll(ctx context.Context, c *rpc.Call, req *listRequest) (*listResponse, error) {
	return s.list(ctx, c, req, modeldom.ListInput{AllowPublic: true})
}

type getAllExRequest struct {
	listRequest
	IncludeStats bool `json:"include_stats"`
}

func (s *service) getAllEx(ctx context.Context, c *rpc.Call, req *getAllExRequest) (*listResponse, error) {
	allowPublic := req.AllowPublic == nil || *req.AllowPublic
	return s.list(ctx, c, &req.listRequest, modeldom.ListInput{Ex: true, AllowPublic: allowPublic, Stats: req.IncludeStats})
}

type getByIDExRequest struct {
	listRequest
}

func (r *getByIDExRequest) Validate() error {
	if len(r.ID) == 0 {
		return apierr.MissingField("id")
	}
	return nil
}

func (s *service) getByIDEx(ctx context.Context, c *rpc.Call, req *getByIDExRequest) (*listResponse, error) {
	res, err := s.list(ctx, c, &req.listRequest, modeldom.ListInput{Ex: true, AllowPublic: true})
	if err != nil {
		return nil, err
	}
	res.ScrollID = nil
	return res, nil
}

type getByIDRequest struct {
	Model      string   `json:"model" required:"true"`
	OnlyFields []string `json:"only_fields"`
}

type getByIDResponse struct {
	Model map[string]any `json:"model"`
}

// one shapes a single read model for the caller's version.
func one(c *rpc.Call, m map[string]any) *getByIDResponse {
	api.ShapeMetadata(c, []map[string]any{m})
	return &getByIDResponse{Model: m}
}

func (s *service) getByID(ctx context.Context, c *rpc.Call, req *getByIDRequest) (*getByIDResponse, error) {
	m, err := modeldom.ReadOne(ctx, &s.d.Env, c.Company(), req.Model, req.OnlyFields, storedItems)
	if err != nil {
		return nil, err
	}
	return one(c, m), nil
}

type getByTaskIDRequest struct {
	Task       string   `json:"task" required:"true"`
	OnlyFields []string `json:"only_fields"`
}

// getByTaskID returns the task's last output model. The reference stopped
// serving it after 2.13; Trove serves it at every version (rulings).
func (s *service) getByTaskID(ctx context.Context, c *rpc.Call, req *getByTaskIDRequest) (*getByIDResponse, error) {
	m, err := modeldom.ReadByTask(ctx, &s.d.Env, c.Company(), req.Task, req.OnlyFields, storedItems)
	if err != nil {
		return nil, err
	}
	return one(c, m), nil
}

type frameworksRequest struct {
	Projects []string `json:"projects"`
}

type frameworksResponse struct {
	Frameworks []string `json:"frameworks"`
}

func (s *service) getFrameworks(ctx context.Context, c *rpc.Call, req *frameworksRequest) (*frameworksResponse, error) {
	fws, err := modeldom.Frameworks(ctx, &s.d.Env, c.Company(), req.Projects)
	if err != nil {
		return nil, err
	}
	return &frameworksResponse{Frameworks: fws}, nil
}
