package tasks

import (
	"context"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

type taskRequest struct {
	Task string `json:"task" required:"true"`
}

type getByIDResponse struct {
	Task *store.Task `json:"task"`
}

func (s *service) getByID(ctx context.Context, c *rpc.Call, req *taskRequest) (*getByIDResponse, error) {
	t, err := taskdom.Get(ctx, &s.d.Env, c.Company(), req.Task)
	if err != nil {
		return nil, err
	}
	if legacyAPI(c) {
		legacyExecution(t)
	}
	return &getByIDResponse{Task: withDisplayData(t)}, nil
}

// getAllRequest is the TasksQuery.
type getAllRequest struct {
	query.Request
	Project            query.StringList `json:"project"`
	IncludeSubprojects bool             `json:"include_subprojects"`
	// Status is read for validation; Build applies it.
	Status query.StringList `json:"status"`
}

// Validate refuses status filter values that do not exist. Type filter
// values are free strings, as in the reference: the web app excludes types
// Trove never stores ("annotation_manual"), and an unknown type included
// simply matches nothing.
func (r *getAllRequest) Validate() error {
	return checkEnum("status", r.Status, taskdom.ValidStatus)
}

// checkEnum checks list-filter values, skipping operators and nulls.
func checkEnum(field string, vals []string, valid func(string) bool) error {
	for _, v := range vals {
		v = strings.TrimPrefix(v, "-")
		if v == "" || strings.HasPrefix(v, "__$") || valid(v) {
			continue
		}
		return apierr.Validation(field, "invalid value %q", v)
	}
	return nil
}

type getAllResponse struct {
	Tasks    []map[string]any `json:"tasks"`
	ScrollID *string          `json:"scroll_id,omitempty"`
}

func (s *service) getAll(ctx context.Context, c *rpc.Call, req *getAllRequest) (*getAllResponse, error) {
	return s.list(ctx, c, req, true, false)
}

func (s *service) getAllEx(ctx context.Context, c *rpc.Call, req *getAllRequest) (*getAllResponse, error) {
	allowPublic := req.AllowPublic == nil || *req.AllowPublic
	return s.list(ctx, c, req, allowPublic, true)
}

type getByIDExRequest struct {
	getAllRequest
}

func (r *getByIDExRequest) Validate() error {
	if len(r.ID) == 0 {
		return apierr.MissingField("id")
	}
	return r.getAllRequest.Validate()
}

func (s *service) getByIDEx(ctx context.Context, c *rpc.Call, req *getByIDExRequest) (*getAllResponse, error) {
	return s.list(ctx, c, &req.getAllRequest, true, true)
}

// list runs a TasksQuery for the caller. Its items are the stored
// documents as they are (the stored task document has the answer's shape);
// decoding each into a store.Task and encoding it again made get_all_ex
// 2.5 times slower on a 100,000-task store (BENCHMARKS.md).
func (s *service) list(ctx context.Context, c *rpc.Call, req *getAllRequest, allowPublic, ex bool) (*getAllResponse, error) {
	res, err := taskdom.List(ctx, &s.d.Env, taskdom.ListInput{Company: c.Company(), Request: &req.Request, Body: c.Body,
		Projects: req.Project, IncludeSubprojects: req.IncludeSubprojects, SearchHidden: req.SearchHidden,
		Ex: ex, AllowPublic: allowPublic})
	if err != nil {
		return nil, err
	}
	legacy := legacyAPI(c)
	for _, it := range res.Items {
		withArtifactDisplayData(it)
		if legacy {
			withLegacyExecution(it)
		}
	}
	return &getAllResponse{Tasks: res.Items, ScrollID: res.ScrollID}, nil
}

type getTypesRequest struct {
	Projects []string `json:"projects"`
}

type getTypesResponse struct {
	Types []string `json:"types"`
}

func (s *service) getTypes(ctx context.Context, c *rpc.Call, req *getTypesRequest) (*getTypesResponse, error) {
	types, err := taskdom.Types(ctx, &s.d.Env, c.Company(), req.Projects)
	if err != nil {
		return nil, err
	}
	return &getTypesResponse{Types: types}, nil
}
