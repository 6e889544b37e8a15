package mlflow

import (
	"context"
	"encoding/json"
	"strings"
	"sync"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/mlflow"
)

// The resolvers are thin: each calls the REST handler of the same call
// with the GraphQL input as its parameters (MLflow's server does the
// same), so rules, limits and messages are REST's.

// gqlRequest is one GraphQL request: the caller, and what several
// fields of its answer share (read once per request).
type gqlRequest struct {
	s  *Server
	id *auth.Identity

	mu       sync.Mutex
	exps     map[string]*gqlExperiment
	byRun    map[string][]*gqlModelVersion
	versions error // the error of reading the registry, once read
	read     bool
}

type gqlKey struct{}

func gqlOf(ctx context.Context) *gqlRequest {
	return ctx.Value(gqlKey{}).(*gqlRequest)
}

// rest calls handle with in's JSON members as parameters and decodes its
// answer into out.
func (g *gqlRequest) rest(ctx context.Context, handle func(context.Context, *call) (any, error), in, out any) error {
	params := map[string]json.RawMessage{}
	if b, err := json.Marshal(in); err == nil && string(b) != "null" {
		if err := json.Unmarshal(b, &params); err != nil {
			return err
		}
	}
	res, err := handle(ctx, &call{id: g.id, params: params})
	if err != nil {
		return g.fail(ctx, err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

// viaREST answers a GraphQL field by the REST endpoint's handler: in's
// members are its parameters, its answer decoded into a new T.
func viaREST[T any](ctx context.Context, handle func(*Server, context.Context, *call) (any, error), in any) (*T, error) {
	g := gqlOf(ctx)
	out := new(T)
	return out, g.rest(ctx, func(ctx context.Context, c *call) (any, error) { return handle(g.s, ctx, c) }, in, out)
}

// fieldError is the message of a field's error, as MLflow words it.
type fieldError string

func (e fieldError) Error() string { return string(e) }

// fail is err as a field error: its API message (never an internal
// error's text).
func (g *gqlRequest) fail(ctx context.Context, err error) error {
	ae := g.s.apiError(ctx, "graphql", err)
	if ae.Code >= 500 && ae.Code != 503 {
		return fieldError("Internal error")
	}
	return fieldError(ae.Message())
}

// gqlRoot answers the fields of Query and Mutation.
type gqlRoot struct{}

type echoArgs struct{ InputString *string }

func (gqlRoot) Test(a echoArgs) *gqlEcho         { return &gqlEcho{Output: a.InputString} }
func (gqlRoot) TestMutation(a echoArgs) *gqlEcho { return &gqlEcho{Output: a.InputString} }

type getExperimentArgs struct {
	Input *struct {
		ExperimentID *string `json:"experiment_id,omitempty"`
	}
}

func (gqlRoot) MlflowGetExperiment(ctx context.Context, a getExperimentArgs) (*gqlGetExperiment, error) {
	return viaREST[gqlGetExperiment](ctx, (*Server).getExperiment, a.Input)
}

type getRunArgs struct {
	Input *struct {
		RunID   *string `json:"run_id,omitempty"`
		RunUUID *string `json:"run_uuid,omitempty"`
	}
}

func (gqlRoot) MlflowGetRun(ctx context.Context, a getRunArgs) (*gqlRunResponse, error) {
	return viaREST[gqlRunResponse](ctx, (*Server).getRun, a.Input)
}

type bulkIntervalArgs struct {
	Input *struct {
		RunIDs     *[]*string `json:"run_ids,omitempty"`
		MetricKey  *string    `json:"metric_key,omitempty"`
		StartStep  *int32     `json:"start_step,omitempty"`
		EndStep    *int32     `json:"end_step,omitempty"`
		MaxResults *int32     `json:"max_results,omitempty"`
	}
}

func (gqlRoot) MlflowGetMetricHistoryBulkInterval(ctx context.Context, a bulkIntervalArgs) (*gqlMetrics, error) {
	return viaREST[gqlMetrics](ctx, (*Server).metricHistoryBulk, a.Input)
}

type listArtifactsArgs struct {
	Input *struct {
		RunID     *string `json:"run_id,omitempty"`
		RunUUID   *string `json:"run_uuid,omitempty"`
		Path      *string `json:"path,omitempty"`
		PageToken *string `json:"page_token,omitempty"`
	}
}

func (gqlRoot) MlflowListArtifacts(ctx context.Context, a listArtifactsArgs) (*gqlArtifacts, error) {
	return viaREST[gqlArtifacts](ctx, (*Server).listRunArtifacts, a.Input)
}

type searchVersionsArgs struct {
	Input *struct {
		Filter     *string    `json:"filter,omitempty"`
		MaxResults *gqlLong   `json:"max_results,omitempty"`
		OrderBy    *[]*string `json:"order_by,omitempty"`
		PageToken  *string    `json:"page_token,omitempty"`
	}
}

func (gqlRoot) MlflowSearchModelVersions(ctx context.Context, a searchVersionsArgs) (*gqlVersions, error) {
	return viaREST[gqlVersions](ctx, (*Server).searchModelVersions, a.Input)
}

type searchRunsArgs struct {
	Input *struct {
		ExperimentIDs *[]*string `json:"experiment_ids,omitempty"`
		Filter        *string    `json:"filter,omitempty"`
		RunViewType   *string    `json:"run_view_type,omitempty"`
		MaxResults    *int32     `json:"max_results,omitempty"`
		OrderBy       *[]*string `json:"order_by,omitempty"`
		PageToken     *string    `json:"page_token,omitempty"`
	}
}

func (gqlRoot) MlflowSearchRuns(ctx context.Context, a searchRunsArgs) (*gqlSearchRuns, error) {
	return viaREST[gqlSearchRuns](ctx, (*Server).searchRuns, a.Input)
}

type searchDatasetsArgs struct {
	Input *struct {
		ExperimentIDs *[]*string `json:"experiment_ids,omitempty"`
	}
}

func (gqlRoot) MlflowSearchDatasets(ctx context.Context, a searchDatasetsArgs) (*gqlDatasets, error) {
	return viaREST[gqlDatasets](ctx, (*Server).searchDatasetSummaries, a.Input)
}

// gqlRun is a run, with its experiment and the registry's versions made
// from it.
type gqlRun struct {
	Info    *gqlRunInfo    `json:"info"`
	Data    *gqlRunData    `json:"data"`
	Inputs  *gqlRunInputs  `json:"inputs"`
	Outputs *gqlRunOutputs `json:"outputs"`
}

// Experiment reads the run's experiment once per request.
func (r *gqlRun) Experiment(ctx context.Context) (*gqlExperiment, error) {
	if r.Info == nil {
		return nil, nil
	}
	g := gqlOf(ctx)
	id := r.Info.ExperimentID
	g.mu.Lock()
	e, ok := g.exps[id]
	g.mu.Unlock()
	if ok {
		return e, nil
	}
	out := &gqlGetExperiment{}
	if err := g.rest(ctx, g.s.getExperiment, map[string]string{"experiment_id": id}, out); err != nil {
		return nil, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.exps == nil {
		g.exps = map[string]*gqlExperiment{}
	}
	g.exps[id] = out.Experiment
	return out.Experiment, nil
}

// ModelVersions are the versions whose run is this run. The registry is
// read once per request however many runs ask (a search of many runs
// would otherwise read it once per run).
func (r *gqlRun) ModelVersions(ctx context.Context) ([]*gqlModelVersion, error) {
	if r.Info == nil {
		return nil, nil
	}
	g := gqlOf(ctx)
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.read {
		g.read = true
		out := &gqlVersions{}
		in := map[string]any{"max_results": mlflow.MaxVersionResults, "order_by": []string{"name ASC", "version_number DESC"}}
		if g.versions = g.rest(ctx, g.s.searchModelVersions, in, out); g.versions == nil {
			g.byRun = map[string][]*gqlModelVersion{}
			for _, v := range out.ModelVersions {
				g.byRun[v.RunID] = append(g.byRun[v.RunID], v)
			}
		}
	}
	if g.versions != nil {
		return nil, g.versions
	}
	return g.byRun[strings.TrimSpace(r.Info.RunID)], nil
}
