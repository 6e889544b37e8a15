package mlflow_test

import (
	"net/url"
	"slices"
	"testing"
	"time"
)

// TestMetricLinks: a metric point names its logged model and dataset;
// get-history answers them, the model answers the points logged with its
// id (and its run), and logged model searches filter and order by them.
func TestMetricLinks(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "metric-links")
		run := c.run(t, exp, nil)
		model := func(name string) string {
			// the default order is newest first: one model a millisecond
			c.e.Clock.Advance(time.Millisecond)
			return str(c.post(t, "logged-models", map[string]any{"experiment_id": exp, "name": name}).ok(t), "model", "info", "model_id")
		}
		a, b, none := model("a"), model("b"), model("none")
		c.post(t, "runs/log-metric", map[string]any{"run_id": run, "key": "acc", "value": 0.5, "timestamp": 10, "step": 1,
			"model_id": a, "dataset_name": "eval", "dataset_digest": "d1"}).ok(t)
		c.post(t, "runs/log-batch", map[string]any{"run_id": run, "metrics": []map[string]any{
			{"key": "acc", "value": 0.9, "timestamp": 11, "step": 1, "model_id": b, "dataset_name": "eval", "dataset_digest": "d1"},
			{"key": "acc", "value": 0.7, "timestamp": 12, "step": 2, "model_id": a, "dataset_name": "train", "dataset_digest": "d2"},
			{"key": "plain", "value": 1, "timestamp": 12, "step": 0},
		}}).ok(t)

		got := c.get(t, "logged-models/"+a, nil).ok(t)
		ms, _ := at(got, "model", "data", "metrics").([]any)
		if len(ms) != 2 || str(ms[0], "model_id") != a || str(ms[0], "run_id") != run || str(ms[0], "dataset_name") != "eval" ||
			str(ms[0], "dataset_digest") != "d1" || at(ms[0], "value") != 0.5 || at(ms[0], "step") != 1.0 || at(ms[0], "timestamp") != 10.0 ||
			str(ms[1], "dataset_name") != "train" {
			t.Fatalf("model a's metrics: %v", ms)
		}
		if got := at(c.get(t, "logged-models/"+none, nil).ok(t), "model", "data", "metrics"); got != nil {
			t.Fatalf("a model without points answers none: %v", got)
		}
		hist := at(c.get(t, "metrics/get-history", url.Values{"run_id": {run}, "metric_key": {"acc"}}).ok(t), "metrics").([]any)
		if len(hist) != 3 || str(hist[1], "model_id") != b || str(hist[2], "dataset_digest") != "d2" {
			t.Fatalf("history keeps the links: %v", hist)
		}
		plain := at(c.get(t, "metrics/get-history", url.Values{"run_id": {run}, "metric_key": {"plain"}}).ok(t), "metrics", 0).(map[string]any)
		if _, has := plain["model_id"]; has {
			t.Fatalf("a point without links answers none: %v", plain)
		}

		names := func(body map[string]any) []string {
			var out []string
			l, _ := body["models"].([]any)
			for _, m := range l {
				out = append(out, str(m, "info", "name"))
			}
			return out
		}
		for _, tc := range []struct {
			name string
			body map[string]any
			want []string
		}{
			{"datasets", map[string]any{"datasets": []map[string]string{{"dataset_name": "eval", "dataset_digest": "d1"}}}, []string{"b", "a"}},
			{"dataset without digest", map[string]any{"datasets": []map[string]string{{"dataset_name": "train"}}}, []string{"a"}},
			{"unknown dataset", map[string]any{"datasets": []map[string]string{{"dataset_name": "eval", "dataset_digest": "zz"}}}, nil},
			{"latest metric", map[string]any{"filter": "metrics.acc > 0.8"}, []string{"b"}},
			{"metric on a dataset", map[string]any{"filter": "metrics.acc < 0.6", "datasets": []map[string]string{{"dataset_name": "eval"}}}, []string{"a"}},
			{"metric and name", map[string]any{"filter": "metrics.acc >= 0.7 AND name = 'a'"}, []string{"a"}},
			{"order by metric", map[string]any{"order_by": []map[string]any{{"field_name": "metrics.acc", "ascending": true}}}, []string{"a", "b", "none"}},
			{"order by metric on a dataset", map[string]any{"order_by": []map[string]any{{"field_name": "metrics.acc", "ascending": false,
				"dataset_name": "eval", "dataset_digest": "d1"}}}, []string{"b", "a", "none"}},
		} {
			body := map[string]any{"experiment_ids": []string{exp}}
			for k, v := range tc.body {
				body[k] = v
			}
			if got := names(c.post(t, "logged-models/search", body).ok(t)); !slices.Equal(got, tc.want) {
				t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
			}
		}
		c.post(t, "logged-models/search", map[string]any{"experiment_ids": []string{exp}, "filter": "metrics.acc > 'x'"}).
			fails(t, 400, "INVALID_PARAMETER_VALUE", "'x'")
		c.post(t, "logged-models/search", map[string]any{"experiment_ids": []string{exp}, "datasets": []map[string]string{{"dataset_digest": "d1"}}}).
			fails(t, 400, "INVALID_PARAMETER_VALUE", "dataset_name")
		c.post(t, "logged-models/search", map[string]any{"experiment_ids": []string{exp}, "order_by": []map[string]any{{"field_name": "bogus"}}}).
			fails(t, 400, "INVALID_PARAMETER_VALUE", "bogus")
		long := string(make([]byte, 501))
		c.post(t, "runs/log-metric", map[string]any{"run_id": run, "key": "acc", "value": 1, "timestamp": 1, "dataset_name": long}).
			fails(t, 400, "INVALID_PARAMETER_VALUE", "dataset_name")

		// another company's run cannot lend points to this company's model
		o := c.as(otherUser)
		oexp := o.experiment(t, "metric-links-other")
		orun := o.run(t, oexp, nil)
		o.post(t, "runs/log-metric", map[string]any{"run_id": orun, "key": "acc", "value": 0.1, "timestamp": 1, "model_id": a}).ok(t)
		if ms := at(c.get(t, "logged-models/"+a, nil).ok(t), "model", "data", "metrics").([]any); len(ms) != 2 {
			t.Fatalf("another company's points show on the model: %v", ms)
		}
		o.get(t, "logged-models/"+a, nil).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", a)
	})
}

// TestRunModelLinks: log-inputs with models and runs/outputs are answered
// by runs/get (inputs.model_inputs, outputs.model_outputs), once each;
// unknown models are refused.
func TestRunModelLinks(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "run-model-links")
		run := c.run(t, exp, nil)
		m := str(c.post(t, "logged-models", map[string]any{"experiment_id": exp}).ok(t), "model", "info", "model_id")
		ds := map[string]any{"name": "d", "digest": "1", "source_type": "local", "source": "x"}
		for range 2 {
			c.post(t, "runs/log-inputs", map[string]any{"run_id": run, "models": []map[string]string{{"model_id": m}},
				"datasets": []map[string]any{{"dataset": ds}}}).ok(t)
			c.post(t, "runs/outputs", map[string]any{"run_id": run, "models": []map[string]any{{"model_id": m, "step": 3}}}).ok(t)
		}
		got := c.get(t, "runs/get", url.Values{"run_id": {run}}).ok(t)
		if in := at(got, "run", "inputs", "model_inputs").([]any); len(in) != 1 || str(in[0], "model_id") != m {
			t.Fatalf("model inputs: %v", got)
		}
		if out := at(got, "run", "outputs", "model_outputs").([]any); len(out) != 1 || str(out[0], "model_id") != m || at(out[0], "step") != 3.0 {
			t.Fatalf("model outputs: %v", got)
		}
		if n := len(at(got, "run", "inputs", "dataset_inputs").([]any)); n != 1 {
			t.Fatalf("dataset inputs: %d", n)
		}
		c.post(t, "runs/log-inputs", map[string]any{"run_id": run, "models": []map[string]string{{"model_id": "m-missing"}}}).
			fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "m-missing")
		c.post(t, "runs/outputs", map[string]any{"run_id": run, "models": []map[string]any{{"model_id": "m-missing"}}}).
			fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "m-missing")
		c.post(t, "runs/log-inputs", map[string]any{"run_id": run, "models": []map[string]string{{}}}).
			fails(t, 400, "INVALID_PARAMETER_VALUE", "model_id")
		c.as(guestUser).post(t, "runs/outputs", map[string]any{"run_id": run, "models": []map[string]any{{"model_id": m}}}).
			fails(t, 403, "PERMISSION_DENIED", "")
		plain := c.run(t, exp, nil)
		if _, has := c.get(t, "runs/get", url.Values{"run_id": {plain}}).ok(t)["run"].(map[string]any)["outputs"]; has {
			t.Fatalf("a run without outputs answers none")
		}
	})
}

// TestDatasetFilters: datasets.name, digest and context filters of
// runs/search match a run when one of its dataset inputs compares.
func TestDatasetFilters(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "dataset-filters")
		mk := func(name string, inputs ...[3]string) {
			id := c.run(t, exp, map[string]any{"run_name": name})
			var ds []map[string]any
			for _, in := range inputs {
				d := map[string]any{"dataset": map[string]any{"name": in[0], "digest": in[1], "source_type": "local", "source": "s"}}
				if in[2] != "" {
					d["tags"] = []map[string]string{{"key": "mlflow.data.context", "value": in[2]}}
				}
				ds = append(ds, d)
			}
			if len(ds) > 0 {
				c.post(t, "runs/log-inputs", map[string]any{"run_id": id, "datasets": ds}).ok(t)
			}
		}
		mk("iris", [3]string{"iris", "aa11", "training"}, [3]string{"iris-test", "bb22", "evaluation"})
		mk("wine", [3]string{"wine", "cc33", "training"})
		mk("mnist", [3]string{"Mnist", "dd44", ""})
		mk("bare")
		for _, tc := range []struct {
			filter string
			want   []string
		}{
			{"datasets.name = 'iris'", []string{"iris"}},
			{"datasets.name != 'iris'", []string{"iris", "mnist", "wine"}}, // iris-test differs
			{"datasets.name LIKE 'iris%'", []string{"iris"}},
			{"datasets.name ILIKE 'mn%'", []string{"mnist"}},
			{"datasets.name LIKE 'mn%'", nil},
			{"datasets.name IN ('wine', 'Mnist')", []string{"mnist", "wine"}},
			{"datasets.name NOT IN ('wine', 'Mnist')", []string{"iris"}},
			{"datasets.digest = 'cc33'", []string{"wine"}},
			{"datasets.context = 'evaluation'", []string{"iris"}},
			{"datasets.context = 'training'", []string{"iris", "wine"}},
			{"datasets.context != 'training'", []string{"iris"}},
			{"datasets.context = 'training' AND datasets.name = 'wine'", []string{"wine"}},
			{"datasets.name = 'iris' AND attributes.run_name = 'wine'", nil},
		} {
			res := c.post(t, "runs/search", map[string]any{"experiment_ids": []string{exp}, "filter": tc.filter, "order_by": []string{"run_name"}}).ok(t)
			var got []string
			l, _ := res["runs"].([]any)
			for _, r := range l {
				got = append(got, str(r, "info", "run_name"))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("%q: got %v, want %v", tc.filter, got, tc.want)
			}
		}
	})
}
