package mlflow_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// Runs: create (with tags, nested), get, update status and name,
// delete and restore, set and delete tags, log-inputs.
func TestRuns(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "runs-exp")
		created := c.post(t, "runs/create", map[string]any{"experiment_id": exp, "run_name": "first", "start_time": 1700000000123,
			"tags": []map[string]string{{"key": "mlflow.user", "value": "alice"}, {"key": "empty", "value": ""}}}).ok(t)
		id := str(created, "run", "info", "run_id")
		info := at(c.get(t, "runs/get", url.Values{"run_id": {id}}).ok(t), "run", "info")
		if str(info, "run_name") != "first" || str(info, "status") != "RUNNING" || str(info, "experiment_id") != exp ||
			at(info, "start_time") != float64(1700000000123) || str(info, "lifecycle_stage") != "active" || str(info, "run_uuid") != id {
			t.Fatalf("run info %v", info)
		}
		tags := kv(at(c.get(t, "runs/get", url.Values{"run_id": {id}}).ok(t), "run", "data", "tags"))
		if tags["mlflow.user"] != "alice" || tags["empty"] != "" || tags["mlflow.runName"] != "first" {
			t.Fatalf("tags %v", tags)
		}
		c.get(t, "runs/get", url.Values{"run_id": {"missing"}}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "missing")
		c.get(t, "runs/get", nil).fails(t, 400, "INVALID_PARAMETER_VALUE", "run_id")
		c.post(t, "runs/create", map[string]any{"experiment_id": "missing"}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "missing")

		// nested: the child names its parent by tag
		child := c.run(t, exp, map[string]any{"tags": []map[string]string{{"key": "mlflow.parentRunId", "value": id}}})
		if p := kv(at(c.get(t, "runs/get", url.Values{"run_id": {child}}).ok(t), "run", "data", "tags"))["mlflow.parentRunId"]; p != id {
			t.Fatalf("child's parent %q", p)
		}

		// update: status, end time, name
		up := c.post(t, "runs/update", map[string]any{"run_id": id, "status": "FINISHED", "end_time": 1700000009999, "run_name": "renamed"}).ok(t)
		if str(up, "run_info", "status") != "FINISHED" || at(up, "run_info", "end_time") != float64(1700000009999) || str(up, "run_info", "run_name") != "renamed" {
			t.Fatalf("update answered %v", up)
		}
		c.post(t, "runs/update", map[string]any{"run_id": id, "status": "DONE"}).fails(t, 400, "INVALID_PARAMETER_VALUE", "status")
		for _, st := range []string{"FAILED", "KILLED", "SCHEDULED", "RUNNING"} {
			if got := str(c.post(t, "runs/update", map[string]any{"run_id": child, "status": st}).ok(t), "run_info", "status"); got != st {
				t.Fatalf("status %s came back %s", st, got)
			}
		}

		// tags
		c.post(t, "runs/set-tag", map[string]any{"run_id": id, "key": "a/b.c", "value": "x"}).ok(t)
		c.post(t, "runs/delete-tag", map[string]any{"run_id": id, "key": "a/b.c"}).ok(t)
		c.post(t, "runs/delete-tag", map[string]any{"run_id": id, "key": "a/b.c"}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "a/b.c")
		c.post(t, "runs/set-tag", map[string]any{"run_id": id, "key": "", "value": "x"}).fails(t, 400, "INVALID_PARAMETER_VALUE", "key")

		// inputs, the same dataset kept once
		ds := map[string]any{"run_id": id, "datasets": []map[string]any{{"tags": []map[string]string{{"key": "mlflow.data.context", "value": "train"}},
			"dataset": map[string]string{"name": "iris", "digest": "abc", "source_type": "local", "source": "{}", "schema": "{}"}}}}
		c.post(t, "runs/log-inputs", ds).ok(t)
		c.post(t, "runs/log-inputs", ds).ok(t)
		inputs := at(c.get(t, "runs/get", url.Values{"run_id": {id}}).ok(t), "run", "inputs", "dataset_inputs")
		if l, _ := inputs.([]any); len(l) != 1 || str(inputs, 0, "dataset", "name") != "iris" || kv(at(inputs, 0, "tags"))["mlflow.data.context"] != "train" {
			t.Fatalf("inputs %v", inputs)
		}
		c.post(t, "runs/log-inputs", map[string]any{"run_id": id, "datasets": []map[string]any{{"dataset": map[string]string{"name": "x"}}}}).
			fails(t, 400, "INVALID_PARAMETER_VALUE", "digest")

		// delete and restore; a deleted run takes no writes
		c.post(t, "runs/delete", map[string]any{"run_id": id}).ok(t)
		if s := str(c.get(t, "runs/get", url.Values{"run_id": {id}}).ok(t), "run", "info", "lifecycle_stage"); s != "deleted" {
			t.Fatalf("deleted run is %q", s)
		}
		c.post(t, "runs/set-tag", map[string]any{"run_id": id, "key": "k", "value": "v"}).fails(t, 400, "INVALID_PARAMETER_VALUE", "active")
		c.post(t, "runs/restore", map[string]any{"run_id": id}).ok(t)
		c.post(t, "runs/set-tag", map[string]any{"run_id": id, "key": "k", "value": "v"}).ok(t)
	})
}

// Params and metrics: values round-trip exactly (names with '/', step 0,
// ms timestamps, long and empty params), params are immutable, history
// keeps duplicates and NaN/±inf, the batch limits answer MLflow's errors.
func TestLogging(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "logging-exp")
		id := c.run(t, exp, nil)
		long := strings.Repeat("p", 6000)
		c.post(t, "runs/log-parameter", map[string]any{"run_id": id, "key": "opt/lr", "value": "0.1"}).ok(t)
		c.post(t, "runs/log-parameter", map[string]any{"run_id": id, "key": "opt/lr", "value": "0.1"}).ok(t) // same value: fine
		c.post(t, "runs/log-parameter", map[string]any{"run_id": id, "key": "opt/lr", "value": "0.2"}).fails(t, 400, "INVALID_PARAMETER_VALUE", "Changing param values is not allowed")
		c.post(t, "runs/log-parameter", map[string]any{"run_id": id, "key": "long", "value": long}).ok(t)
		c.post(t, "runs/log-parameter", map[string]any{"run_id": id, "key": "too-long", "value": long + "p"}).fails(t, 400, "INVALID_PARAMETER_VALUE", "6000")
		c.post(t, "runs/log-parameter", map[string]any{"run_id": id, "key": "empty", "value": ""}).ok(t)
		c.post(t, "runs/log-parameter", map[string]any{"run_id": id, "key": "../up", "value": "x"}).fails(t, 400, "INVALID_PARAMETER_VALUE", "../up")

		points := []map[string]any{
			{"key": "loss/train", "value": 1.5, "timestamp": 1700000000001, "step": 0},
			{"key": "loss/train", "value": 1.5, "timestamp": 1700000000001, "step": 0}, // a duplicate, kept
			{"key": "loss/train", "value": "NaN", "timestamp": 1700000000002, "step": 1},
			{"key": "loss/train", "value": "Infinity", "timestamp": 1700000000003, "step": 2},
			{"key": "loss/train", "value": "-Infinity", "timestamp": 1700000000004, "step": 3},
			{"key": "loss/train", "value": 0.25, "timestamp": 1700000000005, "step": 4},
		}
		c.post(t, "runs/log-batch", map[string]any{"run_id": id, "metrics": points,
			"params": []map[string]string{{"key": "batch-param", "value": "b"}}, "tags": []map[string]string{{"key": "t", "value": "v"}}}).ok(t)
		c.post(t, "runs/log-metric", map[string]any{"run_id": id, "key": "acc", "value": 0.5, "timestamp": 1700000000010}).ok(t)

		hist := c.get(t, "metrics/get-history", url.Values{"run_id": {id}, "metric_key": {"loss/train"}}).ok(t)
		ms, _ := hist["metrics"].([]any)
		if len(ms) != 6 {
			t.Fatalf("history holds %d points, want 6 (duplicates kept): %v", len(ms), hist)
		}
		wantVals := []any{1.5, 1.5, "NaN", "Infinity", "-Infinity", 0.25}
		wantSteps := []float64{0, 0, 1, 2, 3, 4}
		for i, m := range ms {
			if at(m, "value") != wantVals[i] || at(m, "step") != wantSteps[i] || str(m, "key") != "loss/train" {
				t.Fatalf("point %d: %v", i, m)
			}
		}
		if at(ms[0], "timestamp") != float64(1700000000001) || at(ms[0], "step") != float64(0) || at(ms[5], "step") != float64(4) {
			t.Fatalf("steps and timestamps: %v", ms)
		}
		// paging of the history
		page := c.get(t, "metrics/get-history", url.Values{"run_id": {id}, "metric_key": {"loss/train"}, "max_results": {"4"}}).ok(t)
		tok := str(page, "next_page_token")
		rest := c.get(t, "metrics/get-history", url.Values{"run_id": {id}, "metric_key": {"loss/train"}, "max_results": {"4"}, "page_token": {tok}}).ok(t)
		if l1, l2 := at(page, "metrics").([]any), at(rest, "metrics").([]any); len(l1) != 4 || len(l2) != 2 || tok == "" || str(rest, "next_page_token") != "" {
			t.Fatalf("pages: %v / %v", page, rest)
		}

		run := c.get(t, "runs/get", url.Values{"run_id": {id}}).ok(t)
		params := kv(at(run, "run", "data", "params"))
		if params["opt/lr"] != "0.1" || params["long"] != long || params["empty"] != "" || params["batch-param"] != "b" {
			t.Fatalf("params %v", params)
		}
		latest := map[string]any{}
		for _, m := range at(run, "run", "data", "metrics").([]any) {
			latest[str(m, "key")] = at(m, "value")
		}
		if latest["loss/train"] != 0.25 || latest["acc"] != 0.5 {
			t.Fatalf("latest metrics %v", latest)
		}

		// limits
		many := func(n int, metric bool) []map[string]any {
			out := make([]map[string]any, n)
			for i := range out {
				if metric {
					out[i] = map[string]any{"key": "m", "value": i, "timestamp": 1, "step": i}
				} else {
					out[i] = map[string]any{"key": fmt.Sprintf("k%d", i), "value": "v"}
				}
			}
			return out
		}
		c.post(t, "runs/log-batch", map[string]any{"run_id": id, "metrics": many(1000, true)}).ok(t)
		c.post(t, "runs/log-batch", map[string]any{"run_id": id, "metrics": many(1001, true)}).fails(t, 400, "INVALID_PARAMETER_VALUE", "at most 1000 metrics")
		c.post(t, "runs/log-batch", map[string]any{"run_id": id, "params": many(101, false)}).fails(t, 400, "INVALID_PARAMETER_VALUE", "at most 100 params")
		c.post(t, "runs/log-batch", map[string]any{"run_id": id, "tags": many(101, false)}).fails(t, 400, "INVALID_PARAMETER_VALUE", "at most 100 tags")
		c.post(t, "runs/log-batch", map[string]any{"run_id": id, "metrics": []map[string]any{{"key": "m", "value": "abc", "timestamp": 1}}}).
			fails(t, 400, "INVALID_PARAMETER_VALUE", "value")
		c.post(t, "runs/log-batch", map[string]any{"run_id": id, "metrics": []map[string]any{{"key": "m", "value": 1}}}).
			fails(t, 400, "INVALID_PARAMETER_VALUE", "timestamp")
		if n := len(at(c.get(t, "metrics/get-history", url.Values{"run_id": {id}, "metric_key": {"m"}}).ok(t), "metrics").([]any)); n != 1000 {
			t.Fatalf("m has %d points", n)
		}

		// bulk interval: sampled steps over runs, a step range
		bulk := c.get(t, "metrics/get-history-bulk-interval", url.Values{"run_ids": {id}, "metric_key": {"m"}, "max_results": {"10"}}).ok(t)
		bl, _ := bulk["metrics"].([]any)
		// every 100th step (1000 steps / 10, rounded up) and the last
		if len(bl) != 11 || at(bl[0], "step") != float64(0) || at(bl[9], "step") != float64(900) || at(bl[10], "step") != float64(999) || str(bl[0], "run_id") != id {
			t.Fatalf("bulk sample: %v", bulk)
		}
		ranged := c.get(t, "metrics/get-history-bulk-interval", url.Values{"run_ids": {id}, "metric_key": {"m"}, "start_step": {"10"}, "end_step": {"19"}}).ok(t)
		if rl, _ := ranged["metrics"].([]any); len(rl) != 10 || at(rl[0], "step") != float64(10) {
			t.Fatalf("bulk range: %v", ranged)
		}
		c.get(t, "metrics/get-history-bulk-interval", url.Values{"run_ids": {id}, "metric_key": {"m"}, "start_step": {"10"}}).
			fails(t, 400, "INVALID_PARAMETER_VALUE", "both")
		c.get(t, "metrics/get-history-bulk-interval", url.Values{"run_ids": {id}, "metric_key": {"m"}, "max_results": {"2501"}}).
			fails(t, 400, "INVALID_PARAMETER_VALUE", "max_results")

		// get-history-bulk: whole histories of several runs by run id, bounded
		other := c.run(t, exp, nil)
		c.post(t, "runs/log-metric", map[string]any{"run_id": other, "key": "m", "value": 7, "timestamp": 5, "step": 0}).ok(t)
		lst := c.get(t, "metrics/get-history-bulk", url.Values{"run_id": {id, other}, "metric_key": {"m"}}).ok(t)
		if l, _ := lst["metrics"].([]any); len(l) != 1001 {
			t.Fatalf("bulk list holds %d points", len(l))
		}
		lim := c.get(t, "metrics/get-history-bulk", url.Values{"run_id": {other}, "metric_key": {"m"}, "max_results": {"1"}}).ok(t)
		if l, _ := lim["metrics"].([]any); len(l) != 1 || str(l[0], "run_id") != other || at(l[0], "value") != float64(7) {
			t.Fatalf("bulk list: %v", lim)
		}
		// bulk-interval over two runs: each run's sampled steps, answered by both
		two := c.get(t, "metrics/get-history-bulk-interval", url.Values{"run_ids": {id, other}, "metric_key": {"m"}, "max_results": {"10"}}).ok(t)
		if l, _ := two["metrics"].([]any); len(l) != 12 || str(l[11], "run_id") != other || at(l[11], "step") != float64(0) {
			t.Fatalf("bulk interval of two runs: %v", two)
		}
		c.get(t, "metrics/get-history-bulk", url.Values{"metric_key": {"m"}}).fails(t, 400, "INVALID_PARAMETER_VALUE", "at least one run_id")
		c.get(t, "metrics/get-history-bulk", url.Values{"run_id": {id}}).fails(t, 400, "INVALID_PARAMETER_VALUE", "metric_key")
	})
}
