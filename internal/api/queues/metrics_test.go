package queues_test

import (
	"math"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/testenv"
)

func nums(v []any) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = x.(float64)
	}
	return out
}

func near(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-6 {
			return false
		}
	}
	return true
}

func TestQueueMetrics(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
		clk := fixClock(e, t0)
		a, b := newQueue(t, e, "metrics-a"), newQueue(t, e, "metrics-b")
		tk := newTasks(t, e, 3)
		at := func(sec int) { clk.now = t0.Add(time.Duration(sec) * time.Second) }
		at(0)
		e.Call(t, "queues.add_task", map[string]any{"queue": a, "task": tk[0]}).OK(t) // A: 1 entry, waited 0
		at(10)
		e.Call(t, "queues.add_task", map[string]any{"queue": a, "task": tk[1]}).OK(t) // A: 2, mean wait 5 s
		at(70)
		e.Call(t, "queues.get_next_task", map[string]any{"queue": a}).OK(t) // sampled before the hand-out: A 2, (70+60)/2
		at(80)
		e.Call(t, "queues.add_task", map[string]any{"queue": b, "task": tk[2]}).OK(t) // B: 1, 0
		at(130)
		e.Call(t, "queues.remove_task", map[string]any{"queue": a, "task": tk[1]}).OK(t) // A: empty
		if lu := e.Call(t, "queues.get_by_id", map[string]any{"queue": a}).OK(t).Str("queue.last_update"); lu != "2025-01-01T00:02:10+00:00" {
			t.Fatalf("last_update follows entry changes, got %s", lu)
		}
		sec := float64(t0.Unix())
		ms := func(s int) float64 { return float64(t0.Add(time.Duration(s) * time.Second).UnixMilli()) }
		type series struct {
			dates, waits, lengths []float64
		}
		cases := []struct {
			name string
			body map[string]any
			want map[string]series
		}{
			{"per queue", map[string]any{"from_date": sec, "to_date": sec + 300, "interval": 60, "queue_ids": []string{a, b}},
				map[string]series{
					a: {[]float64{ms(0), ms(60), ms(120)}, []float64{5, 65, 0}, []float64{2, 2, 0}},
					b: {[]float64{ms(60)}, []float64{0}, []float64{1}},
				}},
			{"all queues", map[string]any{"from_date": sec, "to_date": sec + 300, "interval": 60},
				map[string]series{"all": {[]float64{ms(0), ms(60), ms(120)}, []float64{5, 130.0 / 3, 0}, []float64{2, 3, 1}}}},
			{"one wide bucket", map[string]any{"from_date": sec, "to_date": sec + 300, "interval": 3600, "queue_ids": []string{a}},
				map[string]series{a: {[]float64{ms(0)}, []float64{65}, []float64{2}}}},
			{"points before the chart start are cut", map[string]any{"from_date": sec + 3700, "to_date": sec + 4000, "interval": 60, "queue_ids": []string{a}},
				map[string]series{a: {[]float64{}, []float64{}, []float64{}}}},
			{"chart start is one interval before from_date", map[string]any{"from_date": sec + 170, "to_date": sec + 300, "interval": 60, "queue_ids": []string{a, b}},
				map[string]series{a: {[]float64{ms(120)}, []float64{0}, []float64{0}}, b: {[]float64{}, []float64{}, []float64{}}}},
			{"all queues carry the state of cut points", map[string]any{"from_date": sec + 170, "to_date": sec + 300, "interval": 60},
				map[string]series{"all": {[]float64{ms(120)}, []float64{0}, []float64{1}}}},
			{"queue without samples", map[string]any{"from_date": sec + 8000, "to_date": sec + 9000, "interval": 60, "queue_ids": []string{b}},
				map[string]series{b: {[]float64{}, []float64{}, []float64{}}}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				r := e.Call(t, "queues.get_queue_metrics", tc.body).OK(t)
				got := r.List("queues")
				if len(got) != len(tc.want) {
					t.Fatalf("want %d series: %s", len(tc.want), r.Raw)
				}
				for _, it := range got {
					m := it.(map[string]any)
					w, ok := tc.want[m["queue"].(string)]
					if !ok {
						t.Fatalf("unexpected series %v", m["queue"])
					}
					if !near(nums(m["dates"].([]any)), w.dates) || !near(nums(m["avg_waiting_times"].([]any)), w.waits) ||
						!near(nums(m["queue_lengths"].([]any)), w.lengths) {
						t.Fatalf("series %v: got %s", m["queue"], r.Raw)
					}
				}
			})
		}
		// A hidden queue (k8s-glue) is left out of the combined series and
		// of the named ones; naming only hidden queues gives no series.
		at(140)
		h := newQueue(t, e, "metrics-hidden", map[string]any{"system_tags": []string{"k8s-glue"}})
		e.Call(t, "queues.add_task", map[string]any{"queue": h, "task": newTasks(t, e, 1)[0]}).OK(t)
		if r := e.Call(t, "queues.get_queue_metrics", map[string]any{"from_date": sec, "to_date": sec + 300, "interval": 60}).OK(t); !near(nums(r.List("queues.0.queue_lengths")), []float64{2, 3, 1}) {
			t.Fatalf("hidden queue in all: %s", r.Raw)
		}
		if r := e.Call(t, "queues.get_queue_metrics", map[string]any{"from_date": sec, "to_date": sec + 300, "interval": 60, "queue_ids": []string{h}}).OK(t); len(r.List("queues")) != 0 {
			t.Fatalf("hidden queue named: %s", r.Raw)
		}
		if r := e.Call(t, "queues.get_queue_metrics", map[string]any{"from_date": sec, "to_date": sec + 300, "interval": 60, "queue_ids": []string{h, b}}).OK(t); len(r.List("queues")) != 1 || r.Str("queues.0.queue") != b {
			t.Fatalf("hidden and visible queue named: %s", r.Raw)
		}
		// refresh samples now: B has waited 120 s by t=200.
		at(200)
		r := e.Call(t, "queues.get_queue_metrics", map[string]any{"from_date": sec, "to_date": sec + 300, "interval": 60,
			"queue_ids": []string{b}, "refresh": true}).OK(t)
		if w := nums(r.List("queues.0.avg_waiting_times")); !near(w, []float64{0, 120}) {
			t.Fatalf("refresh: %s", r.Raw)
		}
		for _, tc := range []struct {
			body map[string]any
			sub  int
		}{
			{map[string]any{"from_date": sec, "to_date": sec + 10, "interval": 0}, 12},
			{map[string]any{"from_date": sec, "to_date": sec, "interval": 10}, 16},
			{map[string]any{"from_date": sec + 10, "to_date": sec, "interval": 10}, 16},
			{map[string]any{"to_date": sec, "interval": 10}, 12},
			{map[string]any{"from_date": sec, "to_date": sec + 10}, 12},
			{map[string]any{"from_date": -1, "to_date": sec, "interval": 10}, 12},
			{map[string]any{"from_date": "yesterday", "to_date": sec, "interval": 10}, 12},
			{map[string]any{"from_date": sec, "to_date": sec + 10, "interval": 10, "queue_ids": []string{"nope"}}, 701},
			{map[string]any{"from_date": sec, "to_date": sec + 10, "interval": 10, "queue_ids": "x"}, 12},
		} {
			e.Call(t, "queues.get_queue_metrics", tc.body).Err(t, 400, tc.sub)
		}
	})
}
