package projects_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/trove-ml/trove/internal/api/projects"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

func asJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestTaskQueries covers the project operations that read tasks.
func TestTaskQueries(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		p := create(t, e, map[string]any{"name": "tq root"})
		sub := create(t, e, map[string]any{"name": "tq root/sub"})
		other := create(t, e, map[string]any{"name": "tq other"})
		task := func(name, project string, extra map[string]any) string {
			body := map[string]any{"name": name, "type": "training", "project": project}
			for k, v := range extra {
				body[k] = v
			}
			return e.Call(t, "tasks.create", body).OK(t).Str("id")
		}
		hp := func(v string) map[string]any {
			return map[string]any{"hyperparams": map[string]any{"Args": map[string]any{"lr": map[string]any{"value": v}, "bs": map[string]any{"value": "32"}},
				"General": map[string]any{"seed": map[string]any{"value": "1"}}}}
		}
		parentA := task("zeta parent", other, nil)
		parentB := task("alpha parent", other, nil)
		c1 := task("child one", p, mergeMaps(hp("10"), map[string]any{"parent": parentA}))
		task("child two", sub, mergeMaps(hp("9"), map[string]any{"parent": parentB}))
		archived := task("child three", p, mergeMaps(hp("abc"), map[string]any{"parent": parentA, "system_tags": []string{"archived"}}))
		task("loose", other, hp("2"))
		_ = archived

		r := e.Call(t, "projects.get_task_parents", map[string]any{"projects": []string{p}}).OK(t)
		want := []map[string]any{{"id": parentB, "name": "alpha parent", "project": map[string]any{"id": other, "name": "tq other"}},
			{"id": parentA, "name": "zeta parent", "project": map[string]any{"id": other, "name": "tq other"}}}
		if asJSON(r.List("parents")) != asJSON(want) {
			t.Fatalf("parents: %s", r.Raw)
		}
		r = e.Call(t, "projects.get_task_parents", map[string]any{"projects": []string{p}, "include_subprojects": false, "tasks_state": "archived"}).OK(t)
		if len(r.List("parents")) != 1 {
			t.Fatalf("archived parents: %s", r.Raw)
		}
		e.Call(t, "projects.get_task_parents", map[string]any{"tasks_state": "sideways"}).Err(t, 400, 12)

		r = e.Call(t, "projects.get_hyper_parameters", map[string]any{"project": p}).OK(t)
		if asJSON(r.List("parameters")) != `[{"name":"bs","section":"Args"},{"name":"lr","section":"Args"},{"name":"seed","section":"General"}]` || r.Num("total") != 3 {
			t.Fatalf("hyper parameters: %s", r.Raw)
		}
		r = e.Call(t, "projects.get_hyper_parameters", map[string]any{"project": p, "page": 1, "page_size": 2}).OK(t)
		if len(r.List("parameters")) != 1 || r.Num("total") != 3 || r.Num("remaining") != 0 {
			t.Fatalf("hyper parameters page: %s", r.Raw)
		}
		r = e.Call(t, "projects.get_hyper_parameters", map[string]any{"project": p, "page_size": 1}).OK(t)
		if r.Num("remaining") != 2 {
			t.Fatalf("remaining: %s", r.Raw)
		}

		r = e.Call(t, "projects.get_hyperparam_values", map[string]any{"projects": []string{p}, "section": "Args", "name": "lr"}).OK(t)
		if asJSON(r.List("values")) != `["9","10","abc"]` || r.Num("total") != 3 {
			t.Fatalf("values: %s", r.Raw)
		}
		r = e.Call(t, "projects.get_hyperparam_values", map[string]any{"section": "Args", "name": "lr", "pattern": "^A"}).OK(t)
		if asJSON(r.List("values")) != `["abc"]` {
			t.Fatalf("pattern: %s", r.Raw)
		}
		r = e.Call(t, "projects.get_hyperparam_values", map[string]any{"projects": []string{p}, "include_subprojects": false, "section": "Args", "name": "lr"}).OK(t)
		if asJSON(r.List("values")) != `["10","abc"]` {
			t.Fatalf("without subprojects: %s", r.Raw)
		}

		// Metric/variant pairs come from last_metrics.
		ctx := context.Background()
		err := e.App.DB.Tx(ctx, func(q store.Querier) error {
			tk, err := e.App.DB.Tasks().Get(ctx, q, c1)
			if err != nil {
				return err
			}
			tk.LastMetrics = map[string]map[string]*store.MetricSummary{
				projects.MetricHash("loss"): {projects.MetricHash("train"): {Metric: "loss", Variant: "train", Value: jsonx.Float(1)},
					projects.MetricHash("val"): {Metric: "loss", Variant: "val", Value: jsonx.Float(2)}},
				projects.MetricHash("acc"): {projects.MetricHash("val"): {Metric: "acc", Variant: "val", Value: jsonx.Float(3)}},
			}
			return e.App.DB.Tasks().Update(ctx, q, tk)
		})
		if err != nil {
			t.Fatal(err)
		}
		r = e.Call(t, "projects.get_unique_metric_variants", map[string]any{"project": p}).OK(t)
		got := []string{}
		for _, it := range r.List("metrics") {
			m := it.(map[string]any)
			if m["metric_hash"] != projects.MetricHash(m["metric"].(string)) || m["variant_hash"] != projects.MetricHash(m["variant"].(string)) {
				t.Fatalf("hashes: %v", m)
			}
			got = append(got, m["metric"].(string)+"/"+m["variant"].(string))
		}
		if asJSON(got) != `["acc/val","loss/train","loss/val"]` {
			t.Fatalf("metric variants: %s", r.Raw)
		}
		r = e.Call(t, "projects.get_unique_metric_variants", map[string]any{"project": "no-such-project"}).OK(t)
		if len(r.List("metrics")) != 0 {
			t.Fatalf("unknown project: %s", r.Raw)
		}
	})
}

func mergeMaps(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
