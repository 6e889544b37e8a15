package events_test

import (
	"reflect"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// Seed document 3, get_task_latest_scalar_values: "last_100_value:
// number, the average of the last 100 reported values".
func TestSeedLast100ValueAveragesEveryValue(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		task := newTask(t, e, "negative loss")
		batch(t, e, scalar(task, "loss", "total", 1, 4), scalar(task, "loss", "total", 2, 0),
			scalar(task, "loss", "total", 3, -2), scalar(task, "loss", "total", 4, 6),
			scalar(task, "loss", "never positive", 1, -3), scalar(task, "loss", "never positive", 2, -5)).OK(t)
		r := e.Call(t, "events.get_task_latest_scalar_values", map[string]any{"task": task}).OK(t)
		want := []any{
			map[string]any{"name": "never positive", "last_value": -5.0, "last_10_value": -5.0, "last_100_value": -4.0},
			map[string]any{"name": "total", "last_value": 6.0, "last_10_value": 6.0, "last_100_value": 2.0},
		}
		if got := testenv.Get(r.Data, "metrics.0.variants"); !reflect.DeepEqual(got, want) {
			t.Fatalf("got %#v\nwant %#v", got, want)
		}
	})
}

// Seed document 3, get_multi_task_metrics: "event_type
// (events.event_type_enum; all types when absent)".
func TestSeedMultiTaskMetricsAllTypes(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		a, b := newTask(t, e, "a"), newTask(t, e, "b")
		batch(t, e, scalar(a, "loss", "train", 1, 0.5),
			ev{"type": "log", "task": b, "level": "info", "msg": "hello", "metric": "console", "variant": "stdout"},
			ev{"type": "plot", "task": b, "metric": "conf", "variant": "m", "iter": 0, "plot_str": "{}"}).OK(t)
		r := e.Call(t, "events.get_multi_task_metrics", map[string]any{"tasks": []string{a, b}}).OK(t)
		want := []any{
			map[string]any{"metric": "conf", "variants": []any{"m"}},
			map[string]any{"metric": "console", "variants": []any{"stdout"}},
			map[string]any{"metric": "loss", "variants": []any{"train"}},
		}
		if got := testenv.Get(r.Data, "metrics"); !reflect.DeepEqual(got, want) {
			t.Fatalf("got %#v\nwant %#v", got, want)
		}
		// a type given still narrows the list
		r = e.Call(t, "events.get_multi_task_metrics", map[string]any{"tasks": []string{a, b}, "event_type": "log"}).OK(t)
		if got := testenv.Get(r.Data, "metrics"); !reflect.DeepEqual(got, want[1:2]) {
			t.Fatalf("log only: got %#v", got)
		}
	})
}

// Seed document 3, get_task_plots and get_multi_task_plots: "total
// (number; capped at 10000)";
// limit notes: "totals in get_task_events, get_task_log, get_task_plots
// and get_multi_task_plots are capped at 10000".
func TestSeedTaskPlotsTotalCapped(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		task := newTask(t, e, "many plots")
		evs := make([]any, 10001)
		for i := range evs {
			evs[i] = ev{"type": "plot", "task": task, "metric": "m", "variant": "v", "iter": i, "plot_str": "{}"}
		}
		batch(t, e, evs...).OK(t)
		r := e.Call(t, "events.get_task_plots", map[string]any{"task": task, "iters": 20000}).OK(t)
		if r.Num("returned") != 10001 || r.Num("total") != 10000 {
			t.Fatalf("returned %v total %v", r.Num("returned"), r.Num("total"))
		}
		r = e.Call(t, "events.get_multi_task_plots", map[string]any{"tasks": []string{task}, "iters": 20000}).OK(t)
		if r.Num("total") != 10000 {
			t.Fatalf("get_multi_task_plots total %v", r.Num("total"))
		}
	})
}

// Seed document 3, get_task_events: "batch_size (integer, default 500)";
// scalar_metrics_iter_raw: "batch_size (integer, default 10000, ...)",
// "count_total (boolean, default false; when false total is null)".
func TestSeedEventReadDefaults(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		task := newTask(t, e, "many scalars")
		evs := make([]any, 10001)
		for i := range evs {
			evs[i] = scalar(task, "loss", "train", i, float64(i))
		}
		batch(t, e, evs...).OK(t)
		r := e.Call(t, "events.get_task_events", map[string]any{"task": task}).OK(t)
		if r.Num("returned") != 500 || len(r.List("events")) != 500 {
			t.Fatalf("get_task_events default page: returned %v", r.Num("returned"))
		}
		if r.Num("total") != 10000 { // "total (number; capped at 10000)"
			t.Fatalf("get_task_events total %v", r.Num("total"))
		}
		r = e.Call(t, "events.scalar_metrics_iter_raw", map[string]any{"task": task, "metric": map[string]any{"metric": "loss"}}).OK(t)
		if r.Num("returned") != 10000 || r.Data["total"] != nil {
			t.Fatalf("scalar_metrics_iter_raw default: returned %v total %v", r.Num("returned"), r.Data["total"])
		}
		if _, ok := r.Data["total"]; !ok {
			t.Fatal("total must be present (null)")
		}
	})
}

// Seed document 3, get_task_log: "total (number; capped at 10000)".
func TestSeedTaskLogTotalCapped(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		task := newTask(t, e, "chatty")
		evs := make([]any, 10001)
		for i := range evs {
			evs[i] = ev{"type": "log", "task": task, "timestamp": i + 1, "level": "info", "msg": "line"}
		}
		batch(t, e, evs...).OK(t)
		r := e.Call(t, "events.get_task_log", map[string]any{"task": task, "batch_size": 10}).OK(t)
		if r.Num("returned") != 10 || r.Num("total") != 10000 {
			t.Fatalf("returned %v total %v", r.Num("returned"), r.Num("total"))
		}
	})
}
