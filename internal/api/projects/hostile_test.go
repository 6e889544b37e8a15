package projects_test

import (
	"fmt"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// Found by trove-bench hostile: a parent filter of 999 ids was one
// condition each on the path array, and SQLite refused the expression tree
// with a 500. It is a 400 naming the field now.
func TestHostileParentFilterTooLong(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		p := create(t, e, map[string]any{"name": "hostile parent"})
		parents := []string{p}
		for i := 0; i < 998; i++ {
			parents = append(parents, fmt.Sprintf("v%d", i))
		}
		for _, op := range []string{"projects.get_all", "projects.get_all_ex"} {
			r := e.Call(t, op, map[string]any{"parent": parents}).Err(t, 400, 12)
			if r.Msg() == "" {
				t.Fatalf("%s: no message: %s", op, r.Raw)
			}
		}
		// The bound itself still lists.
		e.Call(t, "projects.get_all_ex", map[string]any{"parent": parents[:100]}).OK(t)
	})
}

// Found by trove-bench hostile: the hyper parameter and metric aggregates
// decoded every whole task document, 26-31 s on a 100,000-task store under
// load. They read tables of names kept on task writes now (including the
// last_metrics upkeep of events.add); tasks without names add none.
func TestHostileAggregatesReadOnlyTheirMember(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		p := create(t, e, map[string]any{"name": "hostile aggregates"})
		e.Call(t, "tasks.create", map[string]any{"name": "bare", "type": "training", "project": p}).OK(t)
		task := e.Call(t, "tasks.create", map[string]any{"name": "with params", "type": "training", "project": p,
			"hyperparams": map[string]any{"Args": map[string]any{"lr": map[string]any{"section": "Args", "name": "lr", "value": "0.5"}}}}).OK(t).Str("id")
		e.Call(t, "events.add", map[string]any{"task": task, "type": "training_stats_scalar", "metric": "loss", "variant": "train", "value": 1.5, "iter": 1}).OK(t)

		r := e.Call(t, "projects.get_hyper_parameters", map[string]any{"projects": []string{p}}).OK(t)
		if got := asJSON(r.List("parameters")); got != `[{"name":"lr","section":"Args"}]` {
			t.Fatalf("parameters: %s", r.Raw)
		}
		r = e.Call(t, "projects.get_hyperparam_values", map[string]any{"projects": []string{p}, "section": "Args", "name": "lr"}).OK(t)
		if got := asJSON(r.List("values")); got != `["0.5"]` {
			t.Fatalf("values: %s", r.Raw)
		}
		r = e.Call(t, "projects.get_unique_metric_variants", map[string]any{"project": p}).OK(t)
		if list := r.List("metrics"); len(list) != 1 || list[0].(map[string]any)["metric"] != "loss" {
			t.Fatalf("metric variants: %s", r.Raw)
		}
	})
}

// Found by trove-bench hostile once get_hyper_parameters answered fast: a
// page number whose product with the page size overflows an int was a
// panic (500). It is a page past the end.
func TestHostileHyperParametersPageOverflow(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		p := create(t, e, map[string]any{"name": "hostile pages"})
		e.Call(t, "tasks.create", map[string]any{"name": "with params", "type": "training", "project": p,
			"hyperparams": map[string]any{"Args": map[string]any{"lr": map[string]any{"section": "Args", "name": "lr", "value": "0.5"}}}}).OK(t)
		for _, page := range []int64{1 << 62, 1<<53 + 1, 18446744073709551} {
			r := e.Call(t, "projects.get_hyper_parameters", map[string]any{"projects": []string{p}, "page": page, "page_size": 500}).OK(t)
			if len(r.List("parameters")) != 0 || r.Num("remaining") != 0 || r.Num("total") != 1 {
				t.Fatalf("page %d: %s", page, r.Raw)
			}
			r = e.Call(t, "projects.get_hyperparam_values", map[string]any{"projects": []string{p}, "section": "Args", "name": "lr", "page": page, "page_size": 500}).OK(t)
			if len(r.List("values")) != 0 {
				t.Fatalf("values page %d: %s", page, r.Raw)
			}
		}
	})
}
