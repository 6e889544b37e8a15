package events_test

import (
	"reflect"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

func TestMetricListings(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		a := newTask(t, e, "task a")
		b := newTask(t, e, "task b")
		batch(t, e,
			scalar(a, "loss", "train", 1, 0.5), scalar(a, "loss", "val", 1, -1), scalar(a, "acc", "train", 2, 0.75),
			scalar(a, "loss", "train", 2, 0.25),
			ev{"type": "training_stats_scalar", "task": a, "metric": "Summary", "variant": "f1", "iter": -2147483648, "value": 0.8, "timestamp": 42},
			ev{"type": "training_stats_vector", "task": a, "metric": "vec", "variant": "v", "iter": 1, "values": []float64{1, 2}},
			ev{"type": "training_stats_vector", "task": a, "metric": "vec", "variant": "v", "iter": 2, "values": []float64{3, 4}},
			ev{"type": "plot", "task": b, "metric": "conf", "variant": "m", "iter": 0, "plot_str": "{}"},
			scalar(b, "loss", "test", 1, 2),
		).OK(t)
		cases := []struct {
			name string
			op   string
			body map[string]any
			path string
			want any
		}{
			{"scalar metrics and variants", "events.get_scalar_metrics_and_variants", map[string]any{"task": a}, "metrics",
				map[string]any{"Summary": []any{"f1"}, "acc": []any{"train"}, "loss": []any{"train", "val"}}},
			{"vector metrics and variants", "events.get_vector_metrics_and_variants", map[string]any{"task": a}, "metrics",
				[]any{map[string]any{"metric": "vec", "variants": []any{"v"}}}},
			{"task metrics", "events.get_task_metrics", map[string]any{"tasks": []string{a, b}, "event_type": "training_stats_scalar"}, "metrics",
				[]any{map[string]any{"task": a, "metrics": []any{"acc", "loss"}}, map[string]any{"task": b, "metrics": []any{"loss"}}}},
			{"task metrics of plots", "events.get_task_metrics", map[string]any{"tasks": b, "event_type": "plot"}, "metrics",
				[]any{map[string]any{"task": b, "metrics": []any{"conf"}}}},
			{"multi task metrics", "events.get_multi_task_metrics", map[string]any{"tasks": []string{a, b}, "event_type": "training_stats_scalar"}, "metrics",
				[]any{map[string]any{"metric": "Summary", "variants": []any{"f1"}}, map[string]any{"metric": "acc", "variants": []any{"train"}},
					map[string]any{"metric": "loss", "variants": []any{"test", "train", "val"}}}},
			{"single values", "events.get_task_single_value_metrics", map[string]any{"tasks": []string{a, b}}, "tasks",
				[]any{map[string]any{"task": a, "task_name": "task a", "values": []any{map[string]any{"metric": "Summary", "variant": "f1", "value": 0.8, "timestamp": 42.0}}}}},
			{"vector histogram", "events.vector_metrics_iter_histogram", map[string]any{"task": a, "metric": "vec", "variant": "v"}, "vectors",
				[]any{[]any{1.0, 2.0}, []any{3.0, 4.0}}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				r := e.Call(t, tc.op, tc.body).OK(t)
				if got := testenv.Get(r.Data, tc.path); !reflect.DeepEqual(got, tc.want) {
					t.Fatalf("got %#v\nwant %#v", got, tc.want)
				}
			})
		}
		t.Run("latest scalar values", func(t *testing.T) {
			r := e.Call(t, "events.get_task_latest_scalar_values", map[string]any{"task": a}).OK(t)
			if r.Num("last_iter") != 2 || r.Str("name") != "task a" || r.Str("status") != "created" || r.Num("last_timestamp") == 0 {
				t.Fatalf("bad latest values %s", r.Raw)
			}
			loss := r.List("metrics")[2].(map[string]any)
			v := loss["variants"].([]any)
			// every value counts (issue 17): loss/val (-1) is listed too
			if loss["name"] != "loss" || len(v) != 2 || v[0].(map[string]any)["last_value"] != 0.25 || v[0].(map[string]any)["last_100_value"] != 0.375 ||
				v[1].(map[string]any)["last_100_value"] != -1.0 {
				t.Fatalf("bad loss %v", loss)
			}
		})
		t.Run("errors", func(t *testing.T) {
			e.Call(t, "events.get_task_metrics", map[string]any{"tasks": []string{a, "missing"}}).Err(t, 400, 101)
			e.Call(t, "events.get_task_metrics", map[string]any{"tasks": []string{}}).Err(t, 400, 12)
			e.Call(t, "events.get_task_metrics", map[string]any{"tasks": []string{a}, "event_type": "x"}).Err(t, 400, 12)
			e.Call(t, "events.get_scalar_metrics_and_variants", map[string]any{"task": a, "model_events": true}).Err(t, 400, 201)
			e.Call(t, "events.vector_metrics_iter_histogram", map[string]any{"task": a, "metric": "vec"}).Err(t, 400, 12)
		})
	})
}
