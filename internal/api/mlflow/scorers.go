package mlflow

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/mlflow"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

// MLflow 3's scorers (/api/3.0/mlflow/scorers/...): serialized scorer
// definitions stored per experiment as data. Rules:
// internal/mlflow/scorers.go.

func (s *Server) scorerTable() []endpoint {
	return []endpoint{
		{v3 + "scorers/register", post, rpc.Write, s.registerScorer},
		{v3 + "scorers/list", get, rpc.Read, s.listScorers},
		{v3 + "scorers/versions", get, rpc.Read, s.listScorerVersions},
		{v3 + "scorers/get", get, rpc.Read, s.getScorer},
		{v3 + "scorers/delete", del, rpc.Write, s.deleteScorer},
	}
}

// scorerJSON is a scorer version. experiment_id is a 32-bit number in
// MLflow's schema: only the Default experiment's "0" fits, so it is
// sent for that one alone.
type scorerJSON struct {
	ExperimentID *int   `json:"experiment_id,omitempty"`
	Name         string `json:"scorer_name"`
	Version      int64  `json:"scorer_version"`
	Serialized   string `json:"serialized_scorer"`
	CreationTime int64  `json:"creation_time"`
}

func scorerWire(sc *store.Scorer) scorerJSON {
	out := scorerJSON{Name: sc.Name, Version: sc.Version, Serialized: sc.Serialized, CreationTime: sc.Created}
	if sc.Experiment == mlflow.DefaultID {
		zero := 0
		out.ExperimentID = &zero
	}
	return out
}

func scorersAnswer(list []*store.Scorer, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	out := struct {
		Scorers []scorerJSON `json:"scorers,omitempty"`
	}{}
	for _, sc := range list {
		out.Scorers = append(out.Scorers, scorerWire(sc))
	}
	return out, nil
}

// scorerVersion reads the optional version (0 when absent).
func scorerVersion(c *call) (int64, error) {
	v, err := c.int64p("version")
	if err != nil || v == nil {
		return 0, err
	}
	if *v < 1 {
		return 0, apierr.MLflowInvalidParameter("Invalid value %d for parameter 'version' supplied. It must be a positive integer", *v)
	}
	return *v, nil
}

// experimentAndName reads the experiment_id and name every scorer call
// takes.
func experimentAndName(c *call, needName bool) (string, string, error) {
	exp, err := c.required("experiment_id")
	if err != nil || !needName {
		return exp, "", err
	}
	name, err := c.required("name")
	return exp, name, err
}

// scorerRef reads the experiment, name and version (0: the latest) of a
// get or delete call.
func scorerRef(c *call) (exp, name string, version int64, err error) {
	if exp, name, err = experimentAndName(c, true); err != nil {
		return "", "", 0, err
	}
	version, err = scorerVersion(c)
	return exp, name, version, err
}

func (s *Server) registerScorer(ctx context.Context, c *call) (any, error) {
	exp, name, err := experimentAndName(c, true)
	if err != nil {
		return nil, err
	}
	ser, err := c.required("serialized_scorer")
	if err != nil {
		return nil, err
	}
	v, err := mlflow.RegisterScorer(ctx, s.env, c.id.CompanyID, c.id.UserID, exp, name, ser)
	if err != nil {
		return nil, err
	}
	return map[string]int64{"version": v}, nil
}

func (s *Server) listScorers(ctx context.Context, c *call) (any, error) {
	exp, _, err := experimentAndName(c, false)
	if err != nil {
		return nil, err
	}
	return scorersAnswer(mlflow.ListScorers(ctx, s.env, c.id.CompanyID, exp))
}

func (s *Server) listScorerVersions(ctx context.Context, c *call) (any, error) {
	exp, name, err := experimentAndName(c, true)
	if err != nil {
		return nil, err
	}
	return scorersAnswer(mlflow.ScorerVersions(ctx, s.env, c.id.CompanyID, exp, name))
}

func (s *Server) getScorer(ctx context.Context, c *call) (any, error) {
	exp, name, v, err := scorerRef(c)
	if err != nil {
		return nil, err
	}
	sc, err := mlflow.GetScorer(ctx, s.env, c.id.CompanyID, exp, name, v)
	if err != nil {
		return nil, err
	}
	return map[string]any{"scorer": scorerWire(sc)}, nil
}

func (s *Server) deleteScorer(ctx context.Context, c *call) (any, error) {
	exp, name, v, err := scorerRef(c)
	if err != nil {
		return nil, err
	}
	return empty{}, mlflow.DeleteScorer(ctx, s.env, c.id.CompanyID, exp, name, v)
}
