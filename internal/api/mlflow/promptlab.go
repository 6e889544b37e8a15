package mlflow

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"github.com/trove-ml/trove/internal/mlflow"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

// The prompt engineering UI's runs/create-promptlab-run: a run made,
// logged and finished in one call. Rules: internal/mlflow/promptlab.go.

func (s *Server) promptlabTable() []endpoint {
	return []endpoint{
		{"runs/create-promptlab-run", post, rpc.Write, s.createPromptlabRun},
		{"gateway-proxy", get, rpc.Read, s.gatewayProxy},
	}
}

// gatewayProxy is where MLflow's UI lists the AI gateway's endpoints (the
// prompt lab's models) whenever it opens an experiment. Trove has no
// gateway (server-info says so), and MLflow's own server without a
// deployments target answers this way too: no endpoints, whatever the
// path asked. Nothing is forwarded anywhere.
func (s *Server) gatewayProxy(context.Context, *call) (any, error) {
	return map[string]any{"endpoints": []any{}}, nil
}

// promptParamIn is a key and a value that MLflow's UI may send as a
// string or a number (a number keeps its JSON text).
type promptParamIn struct {
	Key   string          `json:"key"`
	Value json.RawMessage `json:"value"`
}

func promptParams(c *call, name string) ([]mlflow.KV, error) {
	var in []promptParamIn
	if err := c.list(name, &in); err != nil {
		return nil, err
	}
	out := make([]mlflow.KV, 0, len(in))
	for _, p := range in {
		var v string
		if json.Unmarshal(p.Value, &v) != nil {
			v = strings.TrimSpace(string(p.Value))
		}
		out = append(out, mlflow.KV{Key: p.Key, Value: v})
	}
	return out, nil
}

func (s *Server) createPromptlabRun(ctx context.Context, c *call) (any, error) {
	p := &mlflow.Promptlab{Company: c.id.CompanyID, User: c.id.UserID}
	var err error
	for name, dst := range map[string]*string{"experiment_id": &p.ExperimentID, "run_name": &p.RunName, "user_id": &p.UserID,
		"prompt_template": &p.PromptTemplate, "model_route": &p.ModelRoute, "model_input": &p.ModelInput,
		"model_output": &p.ModelOutput, "mlflow_version": &p.MLflowVersion} {
		if *dst, err = c.str(name); err != nil {
			return nil, err
		}
	}
	if p.StartTime, err = c.int64p("start_time"); err != nil {
		return nil, err
	}
	var tags []kvJSON
	if err := c.list("tags", &tags); err != nil {
		return nil, err
	}
	p.Tags = tagMap(tags)
	for name, dst := range map[string]*[]mlflow.KV{"prompt_parameters": &p.PromptParams, "model_parameters": &p.ModelParams,
		"model_output_parameters": &p.OutputParams} {
		if *dst, err = promptParams(c, name); err != nil {
			return nil, err
		}
	}
	run, err := mlflow.StartPromptlabRun(ctx, s.env, s.ing, p)
	if err != nil {
		return nil, err
	}
	stored := s.storeRunFile(ctx, c.id.CompanyID, run.ArtifactURI, mlflow.PromptlabEvalTable, p.EvalTable())
	run, err = mlflow.FinishPromptlabRun(ctx, s.env, c.id.CompanyID, c.id.UserID, run.ID, !stored)
	if err != nil {
		return nil, err
	}
	return map[string]any{"run": runWire(run)}, nil
}

// storeRunFile writes a file the server makes into a run's artifacts;
// false when it could not (no artifact storage, or a failed write,
// which is logged).
func (s *Server) storeRunFile(ctx context.Context, company, artifactURI, name string, data []byte) bool {
	dir := artifactDir(artifactURI)
	if s.files == nil || dir == "" {
		return false
	}
	p := dir + "/" + name
	n, err := s.files.Save(ctx, artifactKey(company, p), bytes.NewReader(data))
	if err == nil {
		err = s.env.DB.PutArtifact(ctx, company, store.ArtifactFile{Path: p, Size: n, Modified: s.env.Time().Millis()})
	}
	if err != nil {
		s.log.Warn("mlflow: storing a run's file failed", "path", p, "err", err)
		return false
	}
	return true
}
