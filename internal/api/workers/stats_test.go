package workers_test

import (
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/testenv"
)

func floats(v any) []float64 {
	list, _ := v.([]any)
	out := make([]float64, len(list))
	for i, x := range list {
		out[i] = x.(float64)
	}
	return out
}

func sameFloats(a []float64, b ...float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if d := a[i] - b[i]; d > 1e-9 || d < -1e-9 {
			return false
		}
	}
	return true
}

// metric finds the series of a worker's metric (and variant) in a
// workers.get_stats answer.
func metric(t *testing.T, r *testenv.Response, worker, name, variant string) map[string]any {
	t.Helper()
	for _, w := range r.List("workers") {
		wm := w.(map[string]any)
		if wm["worker"] != worker {
			continue
		}
		for _, m := range wm["metrics"].([]any) {
			mm := m.(map[string]any)
			v, _ := mm["variant"].(string)
			if mm["metric"] == name && v == variant {
				return mm
			}
		}
	}
	t.Fatalf("no %s/%s/%s in %s", worker, name, variant, r.Raw)
	return nil
}

func values(m map[string]any, agg string) []float64 {
	for _, s := range m["stats"].([]any) {
		sm := s.(map[string]any)
		if sm["aggregation"] == agg {
			return floats(sm["values"])
		}
	}
	return nil
}

func TestStats(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
		fixClock(e, t0)
		task := newTask(t, e, "busy")
		e.Call(t, "workers.get_metric_keys", nil).Err(t, 400, 1005)
		sec := t0.Unix()
		reports := []map[string]any{
			{"worker": "w1", "timestamp": t0.UnixMilli(), "task": task, "machine_stats": map[string]any{"cpu_usage": []float64{10, 30}, "memory_used": 100}},
			{"worker": "w1", "timestamp": sec + 20, "task": task, "machine_stats": map[string]any{"cpu_usage": []float64{20, 40}, "memory_used": 200}},
			{"worker": "w2", "timestamp": sec + 50, "machine_stats": map[string]any{"cpu_usage": []float64{50}, "gpu_usage": []float64{0}}},
			{"worker": "w1", "timestamp": sec + 130, "machine_stats": map[string]any{"cpu_usage": []float64{60, 80}}},
			{"worker": "w1", "timestamp": sec + 5000, "machine_stats": map[string]any{"cpu_usage": []float64{99}}},
		}
		for _, r := range reports {
			e.Call(t, "workers.status_report", r).OK(t)
		}
		buckets := []float64{}
		for _, s := range []int64{0, 40, 80, 120, 160} {
			buckets = append(buckets, float64((sec+s)*1000))
		}
		rng := map[string]any{"from_date": sec, "to_date": sec + 200, "interval": 40}
		with := func(extra map[string]any) map[string]any {
			out := map[string]any{}
			for k, v := range rng {
				out[k] = v
			}
			for k, v := range extra {
				out[k] = v
			}
			return out
		}

		// Clients before 2.32 get the dates per metric and may split by variant.
		r := e.Call(t, "v2.31/workers.get_stats", with(map[string]any{"items": []map[string]any{
			{"key": "cpu_usage", "aggregation": "avg"}, {"key": "cpu_usage", "aggregation": "max"}, {"key": "memory_used"},
			{"key": "gpu_usage", "aggregation": "min"}}})).OK(t)
		if len(r.List("workers")) != 2 {
			t.Fatalf("two workers reported: %s", r.Raw)
		}
		cpu := metric(t, r, "w1", "cpu_usage", "")
		if !sameFloats(floats(cpu["dates"]), buckets...) || !sameFloats(values(cpu, "avg"), 25, 0, 0, 70, 0) ||
			!sameFloats(values(cpu, "max"), 40, 0, 0, 80, 0) || len(cpu["stats"].([]any)) != 2 || cpu["variant"] != nil {
			t.Fatalf("w1 cpu: %v", cpu)
		}
		if mem := metric(t, r, "w1", "memory_used", ""); !sameFloats(values(mem, "avg"), 150, 0, 0, 0, 0) {
			t.Fatalf("w1 memory: %v", mem)
		}
		if w2 := metric(t, r, "w2", "cpu_usage", ""); !sameFloats(values(w2, "avg"), 0, 50, 0, 0, 0) {
			t.Fatalf("w2 cpu: %v", w2)
		}
		for _, w := range r.List("workers") {
			for _, m := range w.(map[string]any)["metrics"].([]any) {
				if m.(map[string]any)["metric"] == "gpu_usage" {
					t.Fatalf("zero values are not stored: %s", r.Raw)
				}
			}
		}

		// Per variant (one per CPU), and an interval below the minimum.
		r = e.Call(t, "v2.31/workers.get_stats", with(map[string]any{"interval": 1, "split_by_variant": true, "worker_ids": []string{"w1"},
			"items": []map[string]any{{"key": "cpu_usage", "category": "min"}}})).OK(t)
		if len(r.List("workers")) != 1 {
			t.Fatalf("worker_ids: %s", r.Raw)
		}
		if v0 := metric(t, r, "w1", "cpu_usage", "0"); !sameFloats(values(v0, "min"), 10, 0, 0, 60, 0) ||
			!sameFloats(floats(v0["dates"]), buckets...) {
			t.Fatalf("variant 0: %v", v0)
		}
		if v1 := metric(t, r, "w1", "cpu_usage", "1"); !sameFloats(values(v1, "min"), 30, 0, 0, 80, 0) {
			t.Fatalf("variant 1: %v", v1)
		}
		if r := e.Call(t, "workers.get_stats", with(map[string]any{"worker_ids": []string{"ghost"},
			"items": []map[string]any{{"key": "cpu_usage"}}})).OK(t); len(r.List("workers")) != 0 {
			t.Fatalf("unknown workers have no stats: %s", r.Raw)
		}

		keys := e.Call(t, "workers.get_metric_keys", nil).OK(t)
		if keys.Str("categories.0.name") != "cpu" || keys.Str("categories.0.metric_keys.0") != "cpu_usage" ||
			keys.Str("categories.1.name") != "memory" || len(keys.List("categories")) != 2 {
			t.Fatalf("metric keys: %s", keys.Raw)
		}
		if k := e.Call(t, "workers.get_metric_keys", map[string]any{"worker_ids": []string{"w2"}}).OK(t); len(k.List("categories")) != 1 {
			t.Fatalf("w2 keys: %s", k.Raw)
		}
		e.Call(t, "workers.get_metric_keys", map[string]any{"worker_ids": []string{"ghost"}}).Err(t, 400, 1005)

		act := e.Call(t, "workers.get_activity_report", rng).OK(t)
		if !sameFloats(floats(testenv.Get(act.Data, "total.dates")), buckets...) ||
			!sameFloats(floats(testenv.Get(act.Data, "total.counts")), 1, 1, 0, 1, 0) ||
			!sameFloats(floats(testenv.Get(act.Data, "active.counts")), 1, 0, 0, 0, 0) {
			t.Fatalf("activity: %s", act.Raw)
		}

		bad := []struct {
			op   string
			body map[string]any
			sub  int
		}{
			{"workers.get_stats", with(map[string]any{"items": []map[string]any{}}), 12},
			{"workers.get_stats", rng, 12},
			{"workers.get_stats", with(map[string]any{"items": []map[string]any{{"key": "cpu_usage", "aggregation": "median"}}}), 12},
			{"workers.get_stats", with(map[string]any{"items": []map[string]any{{"aggregation": "avg"}}}), 12},
			{"workers.get_stats", with(map[string]any{"items": []map[string]any{{"key": "cpu_load"}}}), 12},
			{"workers.get_stats", with(map[string]any{"items": []map[string]any{{"key": "cpu_usage"}}, "split_by_resource": "yes"}), 12},
			{"workers.get_stats", with(map[string]any{"to_date": sec, "items": []map[string]any{{"key": "cpu_usage"}}}), 16},
			{"workers.get_activity_report", with(map[string]any{"interval": 0}), 12},
			{"workers.get_activity_report", with(map[string]any{"from_date": sec + 300}), 16},
			{"workers.get_activity_report", map[string]any{"from_date": sec, "interval": 40}, 12},
			{"workers.get_activity_report", with(map[string]any{"from_date": -5}), 12},
			{"workers.get_activity_report", with(map[string]any{"to_date": "later"}), 12},
			{"workers.get_metric_keys", map[string]any{"worker_ids": "w1"}, 12},
		}
		for _, b := range bad {
			e.Call(t, b.op, b.body).Err(t, 400, b.sub)
		}
	})
}

// stat finds one aggregation of a metric in a 2.32+ answer.
func stat(t *testing.T, m map[string]any, agg string) map[string]any {
	t.Helper()
	for _, s := range m["stats"].([]any) {
		if sm := s.(map[string]any); sm["aggregation"] == agg {
			return sm
		}
	}
	t.Fatalf("no %s in %v", agg, m)
	return nil
}

// TestStatsPerResource covers workers.get_stats from 2.32: dates and an
// always present resource_series per aggregation (the metric keeps its
// dates too, for Trove's UI); split_by_resource adds
// one series per GPU for the GPU keys of a worker with more than one GPU
// (none for one GPU, none for CPU keys); split_by_variant is ignored.
func TestStatsPerResource(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
		fixClock(e, t0)
		sec := t0.Unix()
		for _, r := range []map[string]any{
			{"worker": "two-gpus", "timestamp": sec * 1000, "machine_stats": map[string]any{"cpu_usage": []float64{10, 20}, "gpu_usage": []float64{60, 70}}},
			{"worker": "two-gpus", "timestamp": (sec + 80) * 1000, "machine_stats": map[string]any{"cpu_usage": []float64{30}, "gpu_usage": []float64{40, 90}}},
			{"worker": "one-gpu", "timestamp": (sec + 40) * 1000, "machine_stats": map[string]any{"gpu_usage": []float64{40}}},
		} {
			e.Call(t, "workers.status_report", r).OK(t)
		}
		buckets := []float64{}
		for _, s := range []int64{0, 40, 80, 120, 160} {
			buckets = append(buckets, float64((sec+s)*1000))
		}
		body := func(extra map[string]any) map[string]any {
			out := map[string]any{"from_date": sec, "to_date": sec + 200, "interval": 40, "items": []map[string]any{
				{"key": "gpu_usage", "aggregation": "avg"}, {"key": "gpu_usage", "aggregation": "max"}, {"key": "cpu_usage", "aggregation": "max"}}}
			for k, v := range extra {
				out[k] = v
			}
			return out
		}
		for _, c := range []struct {
			name       string
			extra      map[string]any
			byResource bool
		}{
			{"aggregated", nil, false},
			{"split_by_variant is obsolete", map[string]any{"split_by_variant": true}, false},
			{"split_by_resource", map[string]any{"split_by_resource": true}, true},
		} {
			t.Run(c.name, func(t *testing.T) {
				r := e.Call(t, "workers.get_stats", body(c.extra)).OK(t)
				gpu := metric(t, r, "two-gpus", "gpu_usage", "")
				if !sameFloats(floats(gpu["dates"]), buckets...) || gpu["variant"] != nil {
					t.Fatalf("the metric keeps its dates and has no variant: %v", gpu)
				}
				avg, max := stat(t, gpu, "avg"), stat(t, gpu, "max")
				if !sameFloats(floats(avg["dates"]), buckets...) || !sameFloats(floats(avg["values"]), 65, 0, 65, 0, 0) ||
					!sameFloats(floats(max["values"]), 70, 0, 90, 0, 0) {
					t.Fatalf("two-gpus gpu: %v", gpu)
				}
				series := avg["resource_series"].([]any)
				if !c.byResource {
					if len(series) != 0 || len(max["resource_series"].([]any)) != 0 {
						t.Fatalf("resource series without split_by_resource: %v", gpu)
					}
				} else {
					if len(series) != 2 {
						t.Fatalf("two GPUs, two series: %v", gpu)
					}
					s0, s1 := series[0].(map[string]any), series[1].(map[string]any)
					if s0["name"] != "0" || s1["name"] != "1" || !sameFloats(floats(s0["values"]), 60, 0, 40, 0, 0) ||
						!sameFloats(floats(s1["values"]), 70, 0, 90, 0, 0) {
						t.Fatalf("series: %v", series)
					}
				}
				one := stat(t, metric(t, r, "one-gpu", "gpu_usage", ""), "avg")
				if len(one["resource_series"].([]any)) != 0 || !sameFloats(floats(one["values"]), 0, 40, 0, 0, 0) {
					t.Fatalf("one GPU has no series: %v", one)
				}
				cpu := stat(t, metric(t, r, "two-gpus", "cpu_usage", ""), "max")
				if len(cpu["resource_series"].([]any)) != 0 || !sameFloats(floats(cpu["values"]), 20, 0, 30, 0, 0) {
					t.Fatalf("cpu keys are not split: %v", cpu)
				}
			})
		}
	})
}
