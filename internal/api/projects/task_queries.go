package projects

import (
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/rpc"

	projectdom "github.com/trove-ml/trove/internal/projects"
)

// The project operations that read tasks: parents, hyper parameter names
// and values, metric/variant pairs.

// orTrue reads an optional flag that defaults to true.
func orTrue(b *bool) bool { return b == nil || *b }

// oneProject is the project list of the single-project calls.
func oneProject(id string) []string {
	if id == "" {
		return nil
	}
	return []string{id}
}

type taskParentsRequest struct {
	Projects           []string        `json:"projects"`
	IncludeSubprojects *bool           `json:"include_subprojects"`
	TasksState         json.RawMessage `json:"tasks_state"`
	TaskName           string          `json:"task_name"`
}

type taskParentsResponse struct {
	Parents []projectdom.TaskParent `json:"parents"`
}

func (s *service) getTaskParents(ctx context.Context, c *rpc.Call, req *taskParentsRequest) (*taskParentsResponse, error) {
	states, err := projectdom.StatsStates("tasks_state", req.TasksState)
	if err != nil {
		return nil, err
	}
	scope := projectdom.Scope{Company: c.Company(), Projects: req.Projects, Subprojects: orTrue(req.IncludeSubprojects)}
	parents, err := projectdom.TaskParents(ctx, &s.d.Env, scope, states, req.TaskName)
	if err != nil {
		return nil, err
	}
	return &taskParentsResponse{Parents: parents}, nil
}

type hyperParametersRequest struct {
	Project            string `json:"project"`
	IncludeSubprojects *bool  `json:"include_subprojects"`
	Page               *int   `json:"page"`
	PageSize           *int   `json:"page_size"`
}

type hyperParametersResponse struct {
	Parameters []projectdom.SectionName `json:"parameters"`
	Remaining  int                      `json:"remaining"`
	Total      int                      `json:"total"`
}

func (s *service) getHyperParameters(ctx context.Context, c *rpc.Call, req *hyperParametersRequest) (*hyperParametersResponse, error) {
	page, err := projectdom.NewPage(req.Page, req.PageSize)
	if err != nil {
		return nil, err
	}
	scope := projectdom.Scope{Company: c.Company(), Projects: oneProject(req.Project),
		Subprojects: orTrue(req.IncludeSubprojects), EmptyMeansNone: true}
	res, err := projectdom.HyperParameters(ctx, &s.d.Env, scope, page)
	if err != nil {
		return nil, err
	}
	return &hyperParametersResponse{Parameters: res.Parameters, Remaining: res.Remaining, Total: res.Total}, nil
}

type hyperparamValuesRequest struct {
	Projects           []string `json:"projects"`
	Section            string   `json:"section" required:"true"`
	Name               string   `json:"name" required:"true"`
	AllowPublic        *bool    `json:"allow_public"`
	IncludeSubprojects *bool    `json:"include_subprojects"`
	Pattern            string   `json:"pattern"`
	Page               *int     `json:"page"`
	PageSize           *int     `json:"page_size"`
}

type hyperparamValuesResponse struct {
	Total  int      `json:"total"`
	Values []string `json:"values"`
}

func (s *service) getHyperparamValues(ctx context.Context, c *rpc.Call, req *hyperparamValuesRequest) (*hyperparamValuesResponse, error) {
	page, err := projectdom.NewPage(req.Page, req.PageSize)
	if err != nil {
		return nil, err
	}
	scope := projectdom.Scope{Company: c.Company(), Projects: req.Projects, Subprojects: orTrue(req.IncludeSubprojects)}
	total, values, err := projectdom.HyperparamValues(ctx, &s.d.Env, scope, orTrue(req.AllowPublic), req.Section, req.Name, req.Pattern, page)
	if err != nil {
		return nil, err
	}
	return &hyperparamValuesResponse{Total: total, Values: values}, nil
}

type uniqueMetricsRequest struct {
	Project            string   `json:"project"`
	IncludeSubprojects *bool    `json:"include_subprojects"`
	IDs                []string `json:"ids"`
	ModelMetrics       bool     `json:"model_metrics"`
}

type uniqueMetricsResponse struct {
	Metrics []projectdom.MetricVariant `json:"metrics"`
}

func (s *service) getUniqueMetricVariants(ctx context.Context, c *rpc.Call, req *uniqueMetricsRequest) (*uniqueMetricsResponse, error) {
	scope := projectdom.Scope{Company: c.Company(), Projects: oneProject(req.Project),
		Subprojects: orTrue(req.IncludeSubprojects), EmptyMeansNone: true}
	metrics, err := projectdom.UniqueMetricVariants(ctx, &s.d.Env, scope, req.ModelMetrics, req.IDs)
	if err != nil {
		return nil, err
	}
	return &uniqueMetricsResponse{Metrics: metrics}, nil
}

// MetricHash is the key last_metrics uses for a metric or variant name.
func MetricHash(name string) string { return projectdom.MetricHash(name) }
