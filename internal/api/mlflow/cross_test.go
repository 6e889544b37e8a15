package mlflow_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	mlflowapi "github.com/trove-ml/trove/internal/api/mlflow"
	"github.com/trove-ml/trove/internal/testenv"
)

// One model, two protocols: an MLflow run is a task of the experiment's
// project with its params as hyper-parameters and its finite metric
// points as scalar series; a ClearML task reads as a run.
func TestCrossProtocol(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		e := c.e
		exp := c.experiment(t, "cross/mlflow-side")
		run := c.run(t, exp, map[string]any{"run_name": "from-mlflow"})
		c.post(t, "runs/log-batch", map[string]any{"run_id": run,
			"params": []map[string]string{{"key": "lr", "value": "0.1"}},
			"metrics": []map[string]any{{"key": "loss", "value": 0.5, "timestamp": 1700000000000, "step": 0},
				{"key": "loss", "value": 0.25, "timestamp": 1700000000001, "step": 1},
				{"key": "loss", "value": "NaN", "timestamp": 1700000000002, "step": 2}}}).ok(t)

		task := e.Call(t, "tasks.get_by_id", map[string]any{"task": run}).OK(t)
		if testenv.Get(task.Data, "task.name") != "from-mlflow" || testenv.Get(task.Data, "task.project") != exp ||
			testenv.Get(task.Data, "task.status") != "in_progress" || testenv.Get(task.Data, "task.hyperparams.Args.lr.value") != "0.1" {
			t.Fatalf("the run as a task: %s", task.Raw)
		}
		proj := e.Call(t, "projects.get_by_id", map[string]any{"project": exp}).OK(t)
		if testenv.Get(proj.Data, "project.name") != "cross/mlflow-side" {
			t.Fatalf("the experiment as a project: %s", proj.Raw)
		}
		hist := e.Call(t, "events.scalar_metrics_iter_histogram", map[string]any{"task": run}).OK(t)
		ys, _ := testenv.Get(hist.Data, "loss.loss.y").([]any)
		if len(ys) != 2 || ys[0] != 0.5 || ys[1] != 0.25 {
			t.Fatalf("the run's scalars (finite points): %s", hist.Raw)
		}
		c.post(t, "runs/update", map[string]any{"run_id": run, "status": "FINISHED"}).ok(t)
		if st := testenv.Get(e.Call(t, "tasks.get_by_id", map[string]any{"task": run}).OK(t).Data, "task.status"); st != "completed" {
			t.Fatalf("FINISHED run is task status %v", st)
		}
		c.post(t, "runs/delete", map[string]any{"run_id": run}).ok(t)
		tags, _ := testenv.Get(e.Call(t, "tasks.get_by_id", map[string]any{"task": run}).OK(t).Data, "task.system_tags").([]any)
		if len(tags) != 1 || tags[0] != "archived" {
			t.Fatalf("a deleted run is an archived task: %v", tags)
		}

		// a reset through the ClearML API drops the MLflow history with the events
		e.Call(t, "tasks.reset", map[string]any{"task": run, "force": true}).OK(t)
		if h := c.get(t, "metrics/get-history", url.Values{"run_id": {run}, "metric_key": {"loss"}}).ok(t); len(h) != 0 {
			t.Fatalf("history after a reset: %v", h)
		}

		// a ClearML task through the MLflow API
		pid, _ := e.Call(t, "projects.create", map[string]any{"name": "clearml-side", "description": "d"}).OK(t).Data["id"].(string)
		tid, _ := e.Call(t, "tasks.create", map[string]any{"name": "from-clearml", "type": "training", "project": pid,
			"hyperparams": map[string]any{"Args": map[string]any{"epochs": map[string]any{"section": "Args", "name": "epochs", "value": "10"}},
				"General": map[string]any{"seed": map[string]any{"section": "General", "name": "seed", "value": "7"}}}}).OK(t).Data["id"].(string)
		e.Call(t, "tasks.started", map[string]any{"task": tid}).OK(t)
		lines := []string{
			`{"type":"training_stats_scalar","task":"` + tid + `","metric":"acc","variant":"val","iter":3,"value":0.75,"timestamp":1700000000000}`,
			`{"type":"training_stats_scalar","task":"` + tid + `","metric":"acc","variant":"acc","iter":3,"value":0.5,"timestamp":1700000000000}`,
		}
		e.Do(t, "events.add_batch", strings.Join(lines, "\n"), func(h http.Header) {
			h.Set("Authorization", "Bearer "+e.Token)
			h.Set("Content-Type", "application/json-lines")
		}).OK(t)
		got := c.get(t, "runs/get", url.Values{"run_id": {tid}}).ok(t)
		info := at(got, "run", "info")
		if str(info, "run_name") != "from-clearml" || str(info, "status") != "RUNNING" || str(info, "experiment_id") != pid {
			t.Fatalf("the task as a run: %v", info)
		}
		params := kv(at(got, "run", "data", "params"))
		if params["epochs"] != "10" || params["General/seed"] != "7" {
			t.Fatalf("the task's params: %v", params)
		}
		metrics := map[string]any{}
		for _, m := range at(got, "run", "data", "metrics").([]any) {
			metrics[str(m, "key")] = at(m, "value")
		}
		if metrics["acc/val"] != 0.75 || metrics["acc"] != 0.5 {
			t.Fatalf("the task's metrics: %v", metrics)
		}
		if n := str(c.get(t, "experiments/get", url.Values{"experiment_id": {pid}}).ok(t), "experiment", "name"); n != "clearml-side" {
			t.Fatalf("the project as an experiment: %q", n)
		}
		found := c.post(t, "runs/search", map[string]any{"experiment_ids": []string{pid}, "filter": "params.epochs = '10'"}).ok(t)
		if str(found, "runs", 0, "info", "run_id") != tid {
			t.Fatalf("search finds the task: %v", found)
		}
	})
}

// Every path of the endpoint table is called by a test of this package.
func TestEveryPathHasATest(t *testing.T) {
	paths := []string{"experiments/create", "experiments/get", "experiments/get-by-name", "experiments/search",
		"experiments/update", "experiments/delete", "experiments/restore", "experiments/set-experiment-tag",
		"experiments/delete-experiment-tag", "runs/create", "runs/get", "runs/update", "runs/delete", "runs/restore",
		"runs/search", "runs/log-metric", "runs/log-parameter", "runs/set-tag", "runs/delete-tag", "runs/log-batch",
		"runs/log-inputs", "metrics/get-history", "metrics/get-history-bulk", "metrics/get-history-bulk-interval",
		// artifacts_test.go, registry_test.go, logged_models_test.go
		"artifacts/list", "registered-models/create", "registered-models/get", "registered-models/rename",
		"registered-models/update", "registered-models/delete", "registered-models/search", "registered-models/set-tag",
		"registered-models/delete-tag", "registered-models/get-latest-versions", "registered-models/alias#POST",
		"registered-models/alias#DELETE", "registered-models/alias#GET", "model-versions/create", "model-versions/get",
		"model-versions/update", "model-versions/delete", "model-versions/search", "model-versions/transition-stage",
		"model-versions/set-tag", "model-versions/delete-tag", "model-versions/get-download-uri", "logged-models",
		"logged-models/search", "logged-models/{model_id}#GET", "logged-models/{model_id}#PATCH",
		"logged-models/{model_id}#DELETE", "logged-models/{model_id}/tags", "logged-models/{model_id}/tags/{tag_key...}",
		"logged-models/{model_id}/params", "logged-models/{model_id}/artifacts/directories", "runs/outputs",
		// datasets_test.go, scorers_test.go, promptlab_test.go
		"experiments/search-datasets", "3.0/datasets/create", "3.0/datasets/search", "3.0/datasets/{dataset_id}#GET",
		"3.0/datasets/{dataset_id}#DELETE", "3.0/datasets/{dataset_id}/tags", "3.0/datasets/{dataset_id}/tags/{key...}",
		"3.0/datasets/{dataset_id}/records#POST", "3.0/datasets/{dataset_id}/records#GET", "3.0/datasets/{dataset_id}/experiment-ids",
		"3.0/scorers/register", "3.0/scorers/list", "3.0/scorers/versions", "3.0/scorers/get", "3.0/scorers/delete",
		"runs/create-promptlab-run", "gateway-proxy",
		// traces_test.go
		"traces#POST", "traces#GET", "traces/{request_id}", "traces/{request_id}/info", "traces/{request_id}/tags#PATCH",
		"traces/{request_id}/tags#DELETE", "traces/delete-traces", "traces/link-to-run", "3.0/traces",
		"3.0/traces/search", "3.0/traces/{trace_id}", "3.0/traces/{trace_id}/tags#PATCH", "3.0/traces/{trace_id}/tags#DELETE",
		"3.0/traces/delete-traces", "3.0/traces/calculate-filter-correlation", "3.0/traces/metrics", "3.0/traces/{trace_id}/assessments",
		"3.0/traces/{trace_id}/assessments/{assessment_id}#GET", "3.0/traces/{trace_id}/assessments/{assessment_id}#PATCH",
		"3.0/traces/{trace_id}/assessments/{assessment_id}#DELETE",
		// v3_test.go
		"3.0/server-info"}
	got := mlflowapi.TablePaths()
	if strings.Join(got, ",") != strings.Join(mlflowapi.Sorted(paths), ",") {
		t.Fatalf("the table's paths changed: %v; add tests for new ones and list them here", got)
	}
}
