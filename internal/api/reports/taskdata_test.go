package reports_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// chartEvents reports, for a task or a model, two debug images, a plot,
// scalars over two iterations and a single value.
func chartEvents(t *testing.T, e *testenv.Env, id string, model bool) {
	t.Helper()
	for _, ev := range []obj{
		{"type": "training_debug_image", "metric": "img", "variant": "a", "iter": 1, "url": "http://f/a.png"},
		{"type": "training_debug_image", "metric": "img", "variant": "b", "iter": 1, "url": "http://f/b.png"},
		{"type": "plot", "metric": "plots", "variant": "p", "iter": 1, "plot_str": `{"data": []}`},
		{"type": "training_stats_scalar", "metric": "loss", "variant": "train", "iter": 1, "value": 0.5},
		{"type": "training_stats_scalar", "metric": "loss", "variant": "train", "iter": 2, "value": 0.25},
		{"type": "training_stats_scalar", "metric": "Summary", "variant": "acc", "iter": -2147483648, "value": 0.9},
	} {
		ev["task"], ev["timestamp"], ev["model_event"] = id, 1700000000000, model
		e.Call(t, "events.add", ev).OK(t)
	}
}

func TestGetTaskData(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		task := e.Call(t, "tasks.create", obj{"name": "charted", "type": "training"}).OK(t).Str("id")
		chartEvents(t, e, task, false)
		model := e.Call(t, "models.create", obj{"name": "charted model", "uri": "file:///m"}).OK(t).Str("id")
		chartEvents(t, e, model, true)

		plain := e.Call(t, "reports.get_task_data", obj{"id": []string{task}, "only_fields": []string{"name"}}).OK(t)
		if plain.Str("tasks.0.id") != task || plain.Str("tasks.0.name") != "charted" {
			t.Fatalf("tasks: %s", plain.Raw)
		}
		for _, k := range []string{"plots", "debug_images", "scalar_metrics_iter_histogram", "single_value_metrics"} {
			if _, ok := plain.Data[k]; ok {
				t.Fatalf("%s answered without being asked: %s", k, plain.Raw)
			}
		}

		for _, c := range []struct {
			name  string
			id    string
			model bool
		}{{"task", task, false}, {"model", model, true}} {
			t.Run(c.name, func(t *testing.T) {
				r := e.Call(t, "reports.get_task_data", obj{"id": []string{c.id}, "model_events": c.model,
					"debug_images":                  obj{"metrics": []obj{}},
					"plots":                         obj{"metrics": []obj{{"metric": "plots"}}},
					"scalar_metrics_iter_histogram": obj{},
					"single_value_metrics":          obj{},
				}).OK(t)
				if r.Str("debug_images.0.task") != c.id || len(r.List("debug_images.0.iterations.0.events")) != 2 {
					t.Fatalf("debug images: %s", r.Raw)
				}
				if g := testenv.Get(r.Data, "plots.plots.p."+c.id+".1"); g == nil || len(testenv.Get(g, "plots").([]any)) != 1 {
					t.Fatalf("plots: %s", r.Raw)
				}
				if x := testenv.Get(r.Data, "scalar_metrics_iter_histogram.loss.train."+c.id+".x"); x == nil || len(x.([]any)) != 2 {
					t.Fatalf("histogram: %s", r.Raw)
				}
				if r.Str("single_value_metrics.0.task") != c.id || r.Str("single_value_metrics.0.values.0.variant") != "acc" {
					t.Fatalf("single values: %s", r.Raw)
				}
			})
		}

		// Asked for but nothing found: each chart kind answers empty.
		none := e.Call(t, "reports.get_task_data", obj{"id": []string{"missing"}, "plots": obj{}, "debug_images": obj{},
			"single_value_metrics": obj{}}).OK(t)
		if len(none.List("tasks")) != 0 || none.List("debug_images") == nil || none.List("single_value_metrics") == nil {
			t.Fatalf("empty answer: %s", none.Raw)
		}
	})
}
