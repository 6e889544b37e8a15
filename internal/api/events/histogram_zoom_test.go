package events_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/store/eventstore"
	"github.com/trove-ml/trove/internal/testenv"
)

// zoomPoints is the size of the big series: a spike of one point must
// survive sampling at every zoom level.
const zoomPoints = 1_000_000

const (
	spikeIter = 777_777 // value 1000, reported with the body of the series
	dipIter   = 999_995 // value -1000, reported last in one-point batches
	tailFrom  = 999_990 // the tail reported one point a batch (staged on SQLite)
)

// zoomValue is the big series' value at an iteration: 0 to 0.99, so any
// 100 consecutive points hold both ends, plus the spike and the dip.
func zoomValue(it int) float64 {
	switch it {
	case spikeIter:
		return 1000
	case dipIter:
		return -1000
	}
	return float64(it%100) / 100
}

// seedZoom reports the big series: its body in batches of 100,000 points
// (rolled up as they come), then its tail one point a batch (staged on
// SQLite, past the rollups on both), and packs what the rollups cover
// (PostgreSQL: the body's points move into packed blocks).
func seedZoom(t *testing.T, e *testenv.Env, task string) {
	t.Helper()
	const per = 100_000
	var b strings.Builder
	for start := 0; start < tailFrom; start += per {
		b.Reset()
		for it := start; it < min(start+per, tailFrom); it++ {
			if it > start {
				b.WriteByte('\n')
			}
			fmt.Fprintf(&b, `{"type":"training_stats_scalar","task":"%s","metric":"big","variant":"v","iter":%d,"value":%g,"timestamp":%d}`,
				task, it, zoomValue(it), 1700000000000+int64(it))
		}
		batch(t, e, b.String()).OK(t)
	}
	roll(t, e)
	for {
		n, err := eventstore.Of(e.App.DB).PackPoints(context.Background(), 0, math.MaxInt64)
		if err != nil {
			t.Fatalf("pack: %v", err)
		}
		if n == 0 {
			break
		}
	}
	for it := tailFrom; it < zoomPoints; it++ {
		batch(t, e, scalar(task, "big", "v", it, zoomValue(it))).OK(t)
	}
}

// zoomCurve is one curve of an answer with its extremes (nil when absent).
type zoomCurve struct{ x, y, lo, hi []float64 }

func (c zoomCurve) bucketOf(key float64) int {
	i := -1
	for j, x := range c.x {
		if x <= key {
			i = j
		}
	}
	return i
}

func getZoomCurve(t *testing.T, data any, path string) zoomCurve {
	t.Helper()
	c, ok := testenv.Get(data, path).(map[string]any)
	if !ok {
		t.Fatalf("no curve at %s", path)
	}
	out := zoomCurve{x: nums(c["x"]), y: nums(c["y"])}
	if v, ok := c["y_min"]; ok {
		out.lo = nums(v)
	}
	if v, ok := c["y_max"]; ok {
		out.hi = nums(v)
	}
	if len(out.y) != len(out.x) || (out.lo != nil && (len(out.lo) != len(out.x) || len(out.hi) != len(out.x))) {
		t.Fatalf("arrays of different lengths at %s: %d %d %d %d", path, len(out.x), len(out.y), len(out.lo), len(out.hi))
	}
	return out
}

// TestHistogramZoomSpike: a 1,000,000-point series with a one-point spike
// (packed on PostgreSQL) and a one-point dip (in the staged tail on
// SQLite). With extremes, the spike's bucket holds it as its largest value
// at every zoom level, from the whole series down to the raw points; a
// request without the additions is answered as before.
func TestHistogramZoomSpike(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		task := newTask(t, e, "zoom")
		t0 := time.Now()
		seedZoom(t, e, task)
		t.Logf("seeded %d points in %s", zoomPoints, time.Since(t0).Round(time.Millisecond))
		hist := func(body map[string]any) any {
			body["task"] = task
			return e.Call(t, "events.scalar_metrics_iter_histogram", body).OK(t).Data
		}

		t.Run("without the additions the answer is unchanged", func(t *testing.T) {
			c := getZoomCurve(t, hist(map[string]any{}), "big.v")
			if c.lo != nil || c.hi != nil {
				t.Fatal("y_min/y_max sent to a client that did not ask")
			}
			if len(c.x) > events.DefaultSamples || len(c.x) < events.DefaultSamples/2 {
				t.Fatalf("%d buckets", len(c.x))
			}
		})

		levels := []struct {
			name   string
			lo, hi int64 // the zoomed range; -1: none
			raw    bool  // few enough points to come back as they are
		}{
			{"whole series", -1, -1, false},
			{"whole series as a range", 0, zoomPoints - 1, false},
			{"a tenth", 700_000, 800_000, false},
			{"a thousandth", 777_000, 778_000, true},
			{"twenty points", 777_770, 777_790, true},
			{"the spike alone", spikeIter, spikeIter, true},
		}
		for _, lv := range levels {
			t.Run("spike at "+lv.name, func(t *testing.T) {
				body := map[string]any{"extremes": true}
				if lv.lo >= 0 {
					body["x_min"], body["x_max"] = lv.lo, lv.hi
				}
				c := getZoomCurve(t, hist(body), "big.v")
				if len(c.x) == 0 || len(c.x) > events.DefaultSamples {
					t.Fatalf("%d buckets", len(c.x))
				}
				if lv.lo >= 0 && (c.x[0] > float64(lv.lo)+0 && c.x[0] < float64(lv.lo) || c.x[len(c.x)-1] > float64(lv.hi)) {
					t.Fatalf("buckets %v..%v outside [%d, %d]", c.x[0], c.x[len(c.x)-1], lv.lo, lv.hi)
				}
				i := c.bucketOf(spikeIter)
				if i < 0 || c.hi[i] != 1000 {
					t.Fatalf("spike lost: bucket %d of %d", i, len(c.x))
				}
				for j := range c.x {
					if c.lo[j] > c.y[j] || c.y[j] > c.hi[j] {
						t.Fatalf("bucket %v: mean %v outside [%v, %v]", c.x[j], c.y[j], c.lo[j], c.hi[j])
					}
					if j != i && c.hi[j] >= 1 {
						t.Fatalf("bucket %v holds %v: only the spike's may", c.x[j], c.hi[j])
					}
				}
				if lv.raw {
					n := int(min(lv.hi, zoomPoints-1) - lv.lo + 1)
					if len(c.x) != n {
						t.Fatalf("%d points, want the %d raw ones", len(c.x), n)
					}
					for j, x := range c.x {
						want := zoomValue(int(x))
						if x != float64(lv.lo)+float64(j) || c.y[j] != want || c.lo[j] != want || c.hi[j] != want {
							t.Fatalf("raw point %d: x %v y %v [%v, %v], want x %d y %v", j, x, c.y[j], c.lo[j], c.hi[j], lv.lo+int64(j), want)
						}
					}
				}
				if lv.lo < 0 || lv.hi >= dipIter {
					// the dip of the staged tail is kept as well
					d := c.bucketOf(dipIter)
					if d < 0 || c.lo[d] != -1000 {
						t.Fatalf("dip lost: bucket %d of %d", d, len(c.x))
					}
				}
				for j := range c.x {
					if c.lo[j] < 0 && c.bucketOf(dipIter) != j {
						t.Fatalf("bucket %v holds %v: only the dip's may", c.x[j], c.lo[j])
					}
				}
			})
		}

		t.Run("the staged tail zoomed", func(t *testing.T) {
			c := getZoomCurve(t, hist(map[string]any{"extremes": true, "x_min": 999_980, "x_max": 2_000_000}), "big.v")
			if len(c.x) != 20 || c.x[0] != 999_980 || c.x[19] != zoomPoints-1 {
				t.Fatalf("tail %v", c.x)
			}
			if c.y[15] != -1000 || c.lo[15] != -1000 {
				t.Fatalf("dip at %v: %v", c.x[15], c.y[15])
			}
		})

		t.Run("a range without extremes", func(t *testing.T) {
			c := getZoomCurve(t, hist(map[string]any{"x_min": 777_770, "x_max": 777_790}), "big.v")
			if c.lo != nil || len(c.x) != 21 || c.y[7] != 1000 {
				t.Fatalf("range without extremes: %v %v", c.x, c.y)
			}
		})

		t.Run("samples bound the zoomed buckets", func(t *testing.T) {
			c := getZoomCurve(t, hist(map[string]any{"extremes": true, "samples": 10, "x_min": 777_000, "x_max": 777_999}), "big.v")
			// 1000 points, width 100: buckets 777000, 777100, ...
			if len(c.x) != 10 || c.x[7] != 777_700 || c.hi[7] != 1000 || c.lo[0] != 0 || c.hi[0] != 0.99 {
				t.Fatalf("10 samples: x %v max %v", c.x, c.hi)
			}
		})

		t.Run("by time", func(t *testing.T) {
			ts := int64(1700000000000 + spikeIter)
			c := getZoomCurve(t, hist(map[string]any{"extremes": true, "key": "timestamp", "x_min": ts - 5, "x_max": ts + 5}), "big.v")
			if len(c.x) != 11 || c.x[5] != float64(ts) || c.hi[5] != 1000 {
				t.Fatalf("by time: x %v max %v", c.x, c.hi)
			}
			c = getZoomCurve(t, hist(map[string]any{"extremes": true, "key": "timestamp"}), "big.v")
			if i := c.bucketOf(float64(ts)); i < 0 || c.hi[i] != 1000 || len(c.x) > events.DefaultSamples {
				t.Fatalf("spike lost by time (%d buckets)", len(c.x))
			}
		})

		t.Run("an empty range", func(t *testing.T) {
			data := hist(map[string]any{"extremes": true, "x_min": 5_000_000, "x_max": 6_000_000})
			if m, _ := data.(map[string]any); len(m) != 0 {
				t.Fatalf("empty range answered %v", data)
			}
		})

		t.Run("multi task", func(t *testing.T) {
			other := newTask(t, e, "zoom other")
			batch(t, e, series(other, "big", "v", rangeInts(777_700, 777_800, 1), func(i int) float64 { return -float64(i) })...).OK(t)
			r := e.Call(t, "events.multi_task_scalar_metrics_iter_histogram", map[string]any{
				"tasks": []string{task, other}, "extremes": true, "x_min": 777_770, "x_max": 777_790}).OK(t)
			mine := getZoomCurve(t, r.Data, "metrics.big.v."+task)
			theirs := getZoomCurve(t, r.Data, "metrics.big.v."+other)
			if len(mine.x) != 21 || mine.hi[7] != 1000 || len(theirs.x) != 21 || theirs.lo[0] != -777_770 {
				t.Fatalf("multi task: %v %v", mine.x, theirs.x)
			}
		})

		t.Run("bad bounds", func(t *testing.T) {
			call := func(body map[string]any) *testenv.Response {
				body["task"] = task
				return e.Call(t, "events.scalar_metrics_iter_histogram", body)
			}
			r := call(map[string]any{"x_min": 10, "x_max": 9}).Err(t, 400, 12)
			if !strings.Contains(r.Msg(), "x_max") || !strings.Contains(r.Msg(), "x_min") {
				t.Fatalf("message names neither bound: %s", r.Msg())
			}
			for _, bad := range []map[string]any{
				{"x_min": "ten"},
				{"x_max": 1.5},
				{"x_min": 1e30},
				{"extremes": "yes"},
			} {
				r := call(bad).Err(t, 400, 12)
				if r.Msg() == "" {
					t.Fatalf("%v: no message", bad)
				}
			}
			e.Call(t, "events.multi_task_scalar_metrics_iter_histogram", map[string]any{"tasks": []string{task}, "x_min": 3, "x_max": 2}).Err(t, 400, 12)
		})
	})
}

// TestHistogramZoomSparse: a range is sized by its span; a sparse series
// whose range holds fewer points than samples still comes back as its
// points, and a dense one in buckets of the reference's width.
func TestHistogramZoomSparse(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		task := newTask(t, e, "sparse zoom")
		batch(t, e, series(task, "sparse", "v", rangeInts(0, 100_000, 10), func(i int) float64 { return float64(i) })...).OK(t)
		hist := func(body map[string]any) zoomCurve {
			body["task"], body["extremes"] = task, true
			return getZoomCurve(t, e.Call(t, "events.scalar_metrics_iter_histogram", body).OK(t).Data, "sparse.v")
		}
		cases := []struct {
			name           string
			lo, hi         int64
			samples        int
			n              int     // buckets
			x1             float64 // the second bucket's key
			y0, min0, max0 float64 // the first bucket
		}{
			{"span wider than samples, fewer points: the points", 5, 20_005, 6000, 2000, 20, 10, 10, 10},
			{"more points than samples: buckets", 0, 99_999, 1000, 1000, 100, 45, 0, 90},
			{"open below", -1 << 62, 25, 6000, 3, 10, 0, 0, 0},
			{"one point", 30, 30, 6000, 1, -1, 30, 30, 30},
		}
		t.Run("the widest bounds, by iteration and by time", func(t *testing.T) {
			for _, key := range []string{"iter", "timestamp", "iso_time"} {
				got := hist(map[string]any{"key": key, "x_min": int64(math.MinInt64), "x_max": int64(math.MaxInt64), "samples": 0})
				if len(got.x) != 10_000 || got.y[9_999] != 99_990 || got.hi[9_999] != 99_990 {
					t.Fatalf("%s: %d points, last %v", key, len(got.x), got.y[len(got.y)-1])
				}
			}
			// a time range: the points at 1700000000000 + iteration
			got := hist(map[string]any{"key": "timestamp", "x_min": 1700000000000 + 95, "x_max": 1700000000000 + 120})
			if len(got.x) != 3 || got.x[0] != 1700000000100 || got.y[2] != 120 {
				t.Fatalf("time range: x %v y %v", got.x, got.y)
			}
		})
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				got := hist(map[string]any{"x_min": c.lo, "x_max": c.hi, "samples": c.samples})
				if len(got.x) != c.n || (c.n > 1 && got.x[1] != c.x1) || got.y[0] != c.y0 || got.lo[0] != c.min0 || got.hi[0] != c.max0 {
					t.Fatalf("%d buckets x %v.. y0 %v [%v, %v]", len(got.x), got.x[:min(3, len(got.x))], got.y[0], got.lo[0], got.hi[0])
				}
			})
		}
	})
}
