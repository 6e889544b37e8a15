package events_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// A histogram reads the rollups of all its large series in one statement
// per level: several series of one level, one with negative iterations
// and points past its rollup mark, beside a small series grouped from its
// points, must each give what the series gives asked for alone, and the
// means their points give.
func TestScalarHistogramManySeries(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		task := newTask(t, e, "many series")
		ident := func(i int) float64 { return float64(i) }
		ranges := map[string][2]int{"wa": {0, 30000}, "wb": {-2000, 38000}, "wc": {0, 31000}}
		for v, r := range ranges { // a batch per series: at most 100,000 events a batch
			batch(t, e, series(task, "loss", v, rangeInts(r[0], r[1], 1), ident)...).OK(t)
		}
		batch(t, e, series(task, "loss", "small", rangeInts(0, 100, 1), ident)...).OK(t)
		roll(t, e)
		// past the rollup mark of wc: read from its points until the next run
		batch(t, e, scalar(task, "loss", "wc", 31000, 31000), scalar(task, "loss", "wc", 31001, 31001)).OK(t)
		ranges["wc"] = [2]int{0, 31002}
		hist := func(variants ...string) map[string]any {
			r := e.Call(t, "events.scalar_metrics_iter_histogram", map[string]any{"task": task, "samples": 40,
				"metrics": []map[string]any{{"metric": "loss", "variants": variants}}}).OK(t)
			m, _ := testenv.Get(r.Data, "loss").(map[string]any)
			return m
		}
		all := hist("wa", "wb", "wc", "small")
		if len(all) != 4 {
			t.Fatalf("%d curves", len(all))
		}
		for v, r := range ranges {
			alone, _ := json.Marshal(hist(v)[v])
			together, _ := json.Marshal(all[v])
			if string(alone) != string(together) {
				t.Fatalf("%s alone differs from %s together:\n%s\n%s", v, v, alone, together)
			}
			xs, ys := curve(t, &testenv.Response{Data: map[string]any{"loss": all}}, "loss", v)
			if len(xs) < 20 || len(xs) > 40 {
				t.Fatalf("%s: %d buckets", v, len(xs))
			}
			for i, x := range xs {
				lo, hi := math.Max(x, float64(r[0])), math.Min(x+1024, float64(r[1]))
				if int(x)%1024 != 0 || ys[i] != (lo+hi-1)/2 {
					t.Fatalf("%s bucket %v: mean %v, want %v", v, x, ys[i], (lo+hi-1)/2)
				}
			}
		}
		// 100 points at 40 samples: width 3, grouped from the points
		alone, _ := json.Marshal(hist("small")["small"])
		together, _ := json.Marshal(all["small"])
		if xs, _ := curve(t, &testenv.Response{Data: map[string]any{"loss": all}}, "loss", "small"); len(xs) != 34 || string(alone) != string(together) {
			t.Fatalf("small series: %d buckets, alone %s, together %s", len(xs), alone, together)
		}
	})
}
