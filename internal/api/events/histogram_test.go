package events_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/events"

	"github.com/trove-ml/trove/internal/testenv"
)

// roll runs the rollup job to the end.
func roll(t *testing.T, e *testenv.Env) {
	t.Helper()
	if err := (&events.Roller{DB: e.App.DB}).Run(context.Background()); err != nil {
		t.Fatalf("rollups: %v", err)
	}
}

// strip drops the envelope's meta (ids differ between calls).
func strip(raw string) string {
	i := strings.Index(raw, `"data":`)
	return raw[i:]
}

func series(task, metric, variant string, iters []int, value func(int) float64) []any {
	out := make([]any, len(iters))
	for i, it := range iters {
		out[i] = scalar(task, metric, variant, it, value(it))
	}
	return out
}

func rangeInts(lo, hi, step int) []int {
	var out []int
	for i := lo; i < hi; i += step {
		out = append(out, i)
	}
	return out
}

func nums(v any) []float64 {
	list, _ := v.([]any)
	out := make([]float64, len(list))
	for i, x := range list {
		out[i], _ = x.(float64)
	}
	return out
}

func curve(t *testing.T, r *testenv.Response, metric, variant string) (xs, ys []float64) {
	t.Helper()
	c, ok := testenv.Get(r.Data, metric+"."+variant).(map[string]any)
	if !ok {
		t.Fatalf("no curve %s/%s in %s", metric, variant, r.Raw)
	}
	if c["name"] != variant {
		t.Fatalf("curve name %v", c["name"])
	}
	return nums(c["x"]), nums(c["y"])
}

func TestScalarHistogram(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		task := newTask(t, e, "histograms")
		ident := func(i int) float64 { return float64(i) }
		var evs []any
		evs = append(evs, series(task, "small", "a", rangeInts(0, 100, 1), ident)...)
		evs = append(evs, series(task, "one", "a", []int{7}, ident)...)
		evs = append(evs, series(task, "gaps", "a", []int{0, 1, 2, 50, 51, 1000}, ident)...)
		evs = append(evs, series(task, "big", "a", rangeInts(-500, 29500, 1), ident)...)
		evs = append(evs, ev{"type": "training_stats_scalar", "task": task, "metric": "Summary", "variant": "acc", "iter": -2147483648, "value": 0.9})
		evs = append(evs, `{"type": "training_stats_scalar", "task": "`+task+`", "metric": "small", "variant": "a", "iter": 200, "value": NaN}`)
		r := batch(t, e, evs...).OK(t)
		if r.Num("errors") != 1 {
			t.Fatalf("NaN value not refused: %s", r.Raw)
		}
		hist := func(body map[string]any) *testenv.Response {
			body["task"] = task
			return e.Call(t, "events.scalar_metrics_iter_histogram", body).OK(t)
		}
		t.Run("fewer points than samples", func(t *testing.T) {
			r := hist(map[string]any{})
			xs, ys := curve(t, r, "small", "a")
			if len(xs) != 100 || xs[99] != 99 || ys[42] != 42 {
				t.Fatalf("bad small curve %v", xs)
			}
			if xs, _ := curve(t, r, "one", "a"); len(xs) != 1 || xs[0] != 7 {
				t.Fatalf("bad one-point curve %v", xs)
			}
			if xs, _ := curve(t, r, "gaps", "a"); len(xs) != 6 || xs[5] != 1000 {
				t.Fatalf("bad gaps curve %v", xs)
			}
			if testenv.Get(r.Data, "Summary") != nil {
				t.Fatalf("single value in histogram: %s", r.Raw)
			}
		})
		t.Run("downsampled like the reference", func(t *testing.T) {
			r := hist(map[string]any{"samples": 10, "metrics": []map[string]any{{"metric": "small"}}})
			xs, ys := curve(t, r, "small", "a")
			if len(xs) != 10 || xs[1] != 10 || ys[0] != 4.5 || ys[9] != 94.5 {
				t.Fatalf("bad downsample x=%v y=%v", xs, ys)
			}
			if len(r.Data) != 1 {
				t.Fatalf("metrics filter ignored: %s", r.Raw)
			}
		})
		t.Run("gaps downsampled", func(t *testing.T) {
			xs, ys := curve(t, hist(map[string]any{"samples": 3, "metrics": []map[string]any{{"metric": "gaps"}}}), "gaps", "a")
			// width ceil(1001/3) = 334: buckets 0 and 668 hold points
			if len(xs) != 2 || xs[0] != 0 || xs[1] != 668 || ys[0] != (0+1+2+50+51)/5.0 || ys[1] != 1000 {
				t.Fatalf("bad gaps x=%v y=%v", xs, ys)
			}
		})
		t.Run("rollups behind their points", func(t *testing.T) {
			body := map[string]any{"samples": 40, "metrics": []map[string]any{{"metric": "big"}}}
			want := strip(string(hist(body).Raw))
			// drop the series' rollups, as if they had never been built
			db := e.App.DB.Write()
			for _, q := range []string{
				"DELETE FROM event_scalar_rollups WHERE series IN (SELECT id FROM event_series WHERE metric = 'big')",
				"UPDATE event_series SET rolled_through = -2147483648 WHERE metric = 'big'",
			} {
				if _, err := db.ExecContext(context.Background(), q); err != nil {
					t.Fatal(err)
				}
			}
			if got := strip(string(hist(body).Raw)); got != want {
				t.Fatalf("histogram from the points differs:\n%s\n%s", got, want)
			}
			roll(t, e)
			if got := strip(string(hist(body).Raw)); got != want {
				t.Fatalf("histogram after the rollup job differs:\n%s\n%s", got, want)
			}
		})
		t.Run("from rollups", func(t *testing.T) {
			// 30,000 points, 40 samples: width 750, rounded to the 1024 rollup
			xs, ys := curve(t, hist(map[string]any{"samples": 40, "metrics": []map[string]any{{"metric": "big"}}}), "big", "a")
			if len(xs) > 40 || len(xs) < 20 {
				t.Fatalf("bad bucket count %d", len(xs))
			}
			for i, x := range xs {
				lo, hi := math.Max(x, -500), math.Min(x+1024, 29500)
				want := (lo + hi - 1) / 2
				if int(x)%1024 != 0 || ys[i] != want {
					t.Fatalf("bucket %v: mean %v, want %v", x, ys[i], want)
				}
			}
			if xs[0] != -1024 {
				t.Fatalf("negative iterations not floored: %v", xs[0])
			}
		})
		t.Run("replaced points keep rollups exact", func(t *testing.T) {
			roll(t, e)
			// below the rollup mark: the rollups change in the ingest transaction
			batch(t, e, scalar(task, "big", "a", 10, 1010), scalar(task, "big", "a", 11, 1011)).OK(t)
			// past it: read from the points until the next run
			batch(t, e, scalar(task, "big", "a", 29500, 1), scalar(task, "big", "a", 29501, 1)).OK(t)
			xs, ys := curve(t, hist(map[string]any{"samples": 40, "metrics": []map[string]any{{"metric": "big"}}}), "big", "a")
			last := len(xs) - 1
			// the last bucket joins rolled-up points (28672..29499) and new ones
			if want := ((28672.0+29499)*828/2 + 2) / 830; xs[last] != 28672 || math.Abs(ys[last]-want) > 1e-9 {
				t.Fatalf("last bucket %v: %v want %v", xs[last], ys[last], want)
			}
			for i, x := range xs {
				if x == 0 {
					want := (1023.0*1024/2 + 1000 + 1000) / 1024
					if math.Abs(ys[i]-want) > 1e-9 {
						t.Fatalf("bucket 0 after replace: %v want %v", ys[i], want)
					}
					return
				}
			}
			t.Fatal("bucket 0 missing")
		})
		t.Run("exact widths for small series", func(t *testing.T) {
			xs, _ := curve(t, hist(map[string]any{"samples": 7, "metrics": []map[string]any{{"metric": "small"}}}), "small", "a")
			// ceil(100/7) = 15: 0, 15, ... 90
			if len(xs) != 7 || xs[1] != 15 || xs[6] != 90 {
				t.Fatalf("bad exact widths %v", xs)
			}
		})
		t.Run("all points", func(t *testing.T) {
			xs, _ := curve(t, hist(map[string]any{"samples": 0, "metrics": []map[string]any{{"metric": "big"}}}), "big", "a")
			if len(xs) != 30002 {
				t.Fatalf("samples 0 gave %d points", len(xs))
			}
		})
		t.Run("by time", func(t *testing.T) {
			r := hist(map[string]any{"key": "timestamp", "metrics": []map[string]any{{"metric": "small"}}})
			if xs, _ := curve(t, r, "small", "a"); xs[0] != 1700000000000 {
				t.Fatalf("bad time x %v", xs[0])
			}
			r = hist(map[string]any{"key": "iso_time", "metrics": []map[string]any{{"metric": "small"}}})
			c := testenv.Get(r.Data, "small.a.x").([]any)
			if c[0] != "2023-11-14T22:13:20.000Z" {
				t.Fatalf("bad iso x %v", c[0])
			}
		})
		t.Run("bad input", func(t *testing.T) {
			e.Call(t, "events.scalar_metrics_iter_histogram", map[string]any{"task": task, "samples": 6001}).Err(t, 400, 12)
			e.Call(t, "events.scalar_metrics_iter_histogram", map[string]any{"task": task, "key": "nope"}).Err(t, 400, 12)
			e.Call(t, "events.scalar_metrics_iter_histogram", map[string]any{"task": "missing"}).Err(t, 400, 101)
			e.Call(t, "events.scalar_metrics_iter_histogram", map[string]any{}).Err(t, 400, 12)
		})
		t.Run("multi task", func(t *testing.T) {
			other := newTask(t, e, "other histograms")
			batch(t, e, series(other, "small", "a", rangeInts(0, 10, 1), ident)...).OK(t)
			r := e.Call(t, "events.multi_task_scalar_metrics_iter_histogram", map[string]any{"tasks": []string{task, other}, "metrics": []map[string]any{{"metric": "small"}}}).OK(t)
			m := testenv.Get(r.Data, "metrics.small.a").(map[string]any)
			if len(m) != 2 || m[other].(map[string]any)["name"] != "other histograms" || len(nums(m[task].(map[string]any)["x"])) != 100 {
				t.Fatalf("bad multi histogram %s", r.Raw)
			}
			many := make([]string, 101)
			for i := range many {
				many[i] = task
			}
			e.Call(t, "events.multi_task_scalar_metrics_iter_histogram", map[string]any{"tasks": many}).Err(t, 400, 12)
			e.Call(t, "events.multi_task_scalar_metrics_iter_histogram", map[string]any{"tasks": []string{task, "missing"}}).Err(t, 400, 101)
		})
	})
}
