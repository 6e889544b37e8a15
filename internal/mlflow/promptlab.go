package mlflow

import (
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/events"
)

// A promptlab run (runs/create-promptlab-run, MLflow's prompt
// engineering UI) is a run like any other: a finished Trove task with
// the model's parameters, the route and the template as params, two
// tags, and its evaluation table as an artifact.

// Tags and the artifact of a promptlab run.
const (
	TagLoggedArtifacts   = "mlflow.loggedArtifacts"
	TagRunSourceType     = "mlflow.runSourceType"
	SourcePromptEngineer = "PROMPT_ENGINEERING"
	PromptlabEvalTable   = "eval_results_table.json"
)

// Promptlab is a create-promptlab-run request.
type Promptlab struct {
	Company, User, ExperimentID, RunName, UserID string
	StartTime                                    *int64
	Tags                                         map[string]string
	PromptTemplate, ModelRoute, MLflowVersion    string
	ModelInput, ModelOutput                      string
	PromptParams, ModelParams, OutputParams      []KV
}

func promptlabMissing(name string) error {
	return apierr.MLflowInvalidParameter("CreatePromptlabRun request must specify %s.", name)
}

// Check applies MLflow's required fields, in MLflow's order, and
// Trove's bounds (at most MaxPromptlabParamSets of each parameter list).
func (p *Promptlab) Check() error {
	for _, f := range []struct {
		name string
		ok   bool
	}{
		{"experiment_id", p.ExperimentID != ""},
		{"prompt_template", p.PromptTemplate != ""},
		{"prompt_parameters", len(p.PromptParams) > 0},
		{"model_route", p.ModelRoute != ""},
		{"model_input", p.ModelInput != ""},
		{"mlflow_version", p.MLflowVersion != ""},
	} {
		if !f.ok {
			return promptlabMissing(f.name)
		}
	}
	for name, list := range map[string][]KV{"prompt_parameters": p.PromptParams, "model_parameters": p.ModelParams, "model_output_parameters": p.OutputParams} {
		if len(list) > MaxPromptlabParamSets {
			return apierr.MLflowInvalidParameter("Parameter '%s' holds %d entries, the limit is %d", name, len(list), MaxPromptlabParamSets)
		}
	}
	return CheckBatch(p.batch(""))
}

// batch is what the run logs: the model's parameters, its route and the
// prompt template as params, and the promptlab tags.
func (p *Promptlab) batch(runID string) *Batch {
	params := append(append([]KV{}, p.ModelParams...), KV{"model_route", p.ModelRoute}, KV{"prompt_template", p.PromptTemplate})
	artifacts, _ := json.Marshal([]map[string]string{{"path": PromptlabEvalTable, "type": "table"}})
	// MLflow's clients compare this tag's text: Python's json.dumps spacing
	tag := spacedJSON(artifacts)
	return &Batch{Company: p.Company, User: p.User, RunID: runID, Params: params,
		Tags: []KV{{TagLoggedArtifacts, tag}, {TagRunSourceType, SourcePromptEngineer}}}
}

// spacedJSON writes compact JSON with ", " and ": " between members, as
// Python's json module does by default (values here hold no such text).
func spacedJSON(b []byte) string {
	out := make([]byte, 0, len(b)+8)
	inStr, esc := false, false
	for _, c := range b {
		out = append(out, c)
		switch {
		case esc:
			esc = false
		case c == '\\' && inStr:
			esc = true
		case c == '"':
			inStr = !inStr
		case !inStr && (c == ',' || c == ':'):
			out = append(out, ' ')
		}
	}
	return string(out)
}

// EvalTable is the run's evaluation table artifact: the prompt's
// parameters, the prompt and the output, then the output's parameters,
// as one row.
func (p *Promptlab) EvalTable() []byte {
	cols, row := []string{}, []string{}
	for _, kv := range p.PromptParams {
		cols, row = append(cols, kv.Key), append(row, kv.Value)
	}
	cols, row = append(cols, "prompt", "output"), append(row, p.ModelInput, p.ModelOutput)
	for _, kv := range p.OutputParams {
		cols, row = append(cols, kv.Key), append(row, kv.Value)
	}
	b, _ := json.Marshal(map[string]any{"columns": cols, "data": [][]string{row}})
	return b
}

// StartPromptlabRun creates the run and logs its params and tags; the
// caller stores the evaluation table and then calls FinishPromptlabRun.
func StartPromptlabRun(ctx context.Context, env *domain.Env, ing *events.Ingester, p *Promptlab) (*Run, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	run, err := CreateRun(ctx, env, RunCreate{Company: p.Company, User: p.User, ExperimentID: p.ExperimentID,
		RunName: p.RunName, UserID: p.UserID, StartTime: p.StartTime, Tags: p.Tags})
	if err != nil {
		return nil, err
	}
	if err := LogBatch(ctx, env, ing, *p.batch(run.ID)); err != nil {
		return nil, err
	}
	return run, nil
}

// FinishPromptlabRun ends the run: FINISHED, or FAILED when its artifact
// could not be stored (as MLflow does).
func FinishPromptlabRun(ctx context.Context, env *domain.Env, company, user, id string, failed bool) (*Run, error) {
	status := "FINISHED"
	if failed {
		status = "FAILED"
	}
	end := env.Time().Millis()
	return UpdateRun(ctx, env, RunUpdate{Company: company, User: user, RunID: id, Status: &status, EndTime: &end})
}
