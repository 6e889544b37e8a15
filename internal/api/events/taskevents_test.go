package events_test

import (
	"fmt"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/testenv"
)

// otherUser belongs to a second company, for isolation tests.
var otherUser = auth.FixedUser{ID: "other-user", Name: "other", AccessKey: "OTHERKEY000000000000", SecretKey: "other-secret-000000000000000000", Role: "user", Company: "other-company"}

// seedMixed reports 2 scalar series x 25 iterations, a plot, an image, a
// log with an iteration and three without.
func seedMixed(t *testing.T, e *testenv.Env, task string) int {
	var evs []any
	for i := 0; i < 25; i++ {
		evs = append(evs, scalar(task, "loss", "a", i, float64(i)), scalar(task, "loss", "b", i, float64(-i)))
	}
	evs = append(evs,
		ev{"type": "plot", "task": task, "iter": 3, "metric": "p", "variant": "v", "plot_str": "{}"},
		ev{"type": "training_debug_image", "task": task, "iter": 3, "metric": "i", "variant": "v", "url": "http://x/1.png"},
		ev{"type": "log", "task": task, "iter": 5, "msg": "at five", "timestamp": 5},
		ev{"type": "log", "task": task, "msg": "one", "timestamp": 1},
		ev{"type": "log", "task": task, "msg": "two", "timestamp": 2},
		ev{"type": "log", "task": task, "msg": "three", "timestamp": 2},
	)
	batch(t, e, evs...).OK(t)
	return len(evs)
}

// pageAll reads get_task_events to the end and returns every event.
func pageAll(t *testing.T, e *testenv.Env, body map[string]any) ([]map[string]any, float64) {
	t.Helper()
	r := e.Call(t, "events.get_task_events", body).OK(t)
	total := r.Num("total")
	var out []map[string]any
	for i := 0; i < 100; i++ {
		for _, x := range r.List("events") {
			out = append(out, x.(map[string]any))
		}
		if r.Num("returned") == 0 {
			return out, total
		}
		r = e.Call(t, "events.get_task_events", map[string]any{"task": body["task"], "scroll_id": r.Str("scroll_id")}).OK(t)
	}
	t.Fatal("scroll did not end")
	return nil, 0
}

func TestGetTaskEvents(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		task := newTask(t, e, "events")
		n := seedMixed(t, e, task)
		t.Run("all in iteration order", func(t *testing.T) {
			all, total := pageAll(t, e, map[string]any{"task": task, "batch_size": 7})
			if len(all) != n || int(total) != n {
				t.Fatalf("got %d events, total %v, want %d", len(all), total, n)
			}
			last := -1.0
			seen := map[string]bool{}
			for i, ev := range all {
				it, hasIter := ev["iter"].(float64)
				if hasIter && it < last {
					t.Fatalf("event %d out of order: %v after %v", i, it, last)
				}
				if !hasIter && i < n-3 {
					t.Fatalf("event without iteration at %d", i)
				}
				if hasIter {
					last = it
				}
				k := fmt.Sprint(ev["type"], ev["metric"], ev["variant"], ev["iter"], ev["msg"])
				if seen[k] {
					t.Fatalf("duplicate %s", k)
				}
				seen[k] = true
			}
			if all[0]["worker"] != "test-worker" || all[0]["@timestamp"] == nil || all[0]["model_event"] != false {
				t.Fatalf("bad stored event %v", all[0])
			}
		})
		t.Run("descending", func(t *testing.T) {
			all, _ := pageAll(t, e, map[string]any{"task": task, "batch_size": 10, "order": "desc", "event_type": "training_stats_scalar"})
			if len(all) != 50 || all[0]["iter"] != 24.0 || all[49]["iter"] != 0.0 {
				t.Fatalf("bad desc scalars: %d, first %v", len(all), all[0])
			}
		})
		t.Run("metric filter", func(t *testing.T) {
			all, _ := pageAll(t, e, map[string]any{"task": task, "metrics": []map[string]any{{"metric": "loss", "variants": []string{"b"}}}})
			if len(all) != 25 || all[3]["value"] != -3.0 {
				t.Fatalf("bad filter: %d %v", len(all), all[3])
			}
		})
		t.Run("logs", func(t *testing.T) {
			all, _ := pageAll(t, e, map[string]any{"task": task, "event_type": "log", "batch_size": 1})
			if len(all) != 4 || all[0]["msg"] != "at five" || all[1]["msg"] != "one" || all[3]["msg"] != "three" {
				t.Fatalf("bad logs %v", all)
			}
		})
		t.Run("errors", func(t *testing.T) {
			e.Call(t, "events.get_task_events", map[string]any{"task": "nope"}).Err(t, 400, 101)
			e.Call(t, "events.get_task_events", map[string]any{"task": task, "event_type": "bogus"}).Err(t, 400, 12)
			e.Call(t, "events.get_task_events", map[string]any{"task": task, "batch_size": -1}).Err(t, 400, 12)
			e.Call(t, "events.get_task_events", map[string]any{"task": task, "scroll_id": "garbage"}).Err(t, 400, 1104)
			r := e.Call(t, "events.get_task_events", map[string]any{"task": task, "batch_size": 1}).OK(t)
			sid := r.Str("scroll_id")
			e.Call(t, "events.get_task_events", map[string]any{"task": task, "scroll_id": sid[:len(sid)-2] + "xx"}).Err(t, 400, 1104)
			other := e.Login(t, otherUser.AccessKey, otherUser.SecretKey)
			e.CallAs(t, other, "events.get_task_events", map[string]any{"task": task, "scroll_id": sid}).Err(t, 400, 1104)
			e.CallAs(t, other, "events.get_task_events", map[string]any{"task": task}).Err(t, 400, 101)
		})
		t.Run("scalar metric data", func(t *testing.T) {
			r := e.Call(t, "events.get_scalar_metric_data", map[string]any{"task": task, "metric": "loss"}).OK(t)
			if r.Num("total") != 50 || r.Num("returned") != 50 || r.List("events")[0].(map[string]any)["iter"] != 24.0 {
				t.Fatalf("bad metric data %v %v", r.Num("total"), r.Num("returned"))
			}
			r = e.Call(t, "events.get_scalar_metric_data", map[string]any{"task": task, "metric": "loss", "scroll_id": r.Str("scroll_id")}).OK(t)
			if r.Num("returned") != 0 {
				t.Fatalf("scroll past the end returned %v", r.Num("returned"))
			}
			r = e.Call(t, "events.get_scalar_metric_data", map[string]any{"task": task, "metric": "loss", "no_scroll": true}).OK(t)
			if r.Data["scroll_id"] != nil {
				t.Fatalf("no_scroll gave a scroll id")
			}
		})
		t.Run("raw", func(t *testing.T) {
			body := map[string]any{"task": task, "metric": map[string]any{"metric": "loss"}, "batch_size": 20, "count_total": true}
			r := e.Call(t, "events.scalar_metrics_iter_raw", body).OK(t)
			if r.Num("total") != 50 || r.Num("returned") != 20 {
				t.Fatalf("bad raw page %s", r.Raw)
			}
			got := map[string]int{}
			for i := 0; i < 10 && r.Num("returned") > 0; i++ {
				for name, v := range r.Data["variants"].(map[string]any) {
					xs := v.(map[string]any)["iter"].([]any)
					ys := v.(map[string]any)["y"].([]any)
					if len(xs) != len(ys) {
						t.Fatalf("x/y mismatch")
					}
					got[name] += len(xs)
				}
				r = e.Call(t, "events.scalar_metrics_iter_raw", map[string]any{"task": task, "metric": map[string]any{"metric": "loss"}, "scroll_id": r.Str("scroll_id")}).OK(t)
			}
			if got["a"] != 25 || got["b"] != 25 || r.Num("returned") != 0 || len(r.Data["variants"].(map[string]any)) != 0 {
				t.Fatalf("bad raw read %v, last %s", got, r.Raw)
			}
			r = e.Call(t, "events.scalar_metrics_iter_raw", map[string]any{"task": task, "key": "timestamp", "metric": map[string]any{"metric": "loss", "variants": []string{"a"}}}).OK(t)
			ts := r.Data["variants"].(map[string]any)["a"].(map[string]any)["timestamp"].([]any)
			if len(ts) != 25 || ts[0] != 1700000000000.0 {
				t.Fatalf("bad raw by time %s", r.Raw)
			}
			e.Call(t, "events.scalar_metrics_iter_raw", map[string]any{"task": task, "metric": map[string]any{"metric": "loss"}, "batch_size": -5}).Err(t, 400, 12)
			e.Call(t, "events.scalar_metrics_iter_raw", map[string]any{"task": task}).Err(t, 400, 12)
		})
	}, testenv.WithUsers(otherUser))
}
