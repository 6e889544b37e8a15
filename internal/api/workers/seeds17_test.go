package workers_test

import (
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/testenv"
)

// Seed document 1, workers.status_report: "queues (string[]; null leaves
// the list unchanged), system_tags, tags (replace the worker's tags)".
func TestSeedStatusReportQueuesAndTags(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		now := time.Now()
		q1 := e.Call(t, "queues.create", map[string]any{"name": "queue one"}).OK(t).Str("id")
		q2 := e.Call(t, "queues.create", map[string]any{"name": "queue two"}).OK(t).Str("id")
		e.Call(t, "workers.register", map[string]any{"worker": "w", "queues": []string{q1, q2}, "tags": []string{"old"}}).OK(t)
		e.Call(t, "workers.status_report", map[string]any{"worker": "w", "timestamp": now.Unix(), "queues": nil, "tags": []string{"new"}}).OK(t)
		w := &testenv.Response{Data: worker(t, e.Call(t, "workers.get_all", nil).OK(t), "w")}
		if len(w.List("queues")) != 2 {
			t.Fatalf("queues null must leave the list: %v", w.Data)
		}
		if tags := w.List("tags"); len(tags) != 1 || tags[0] != "new" {
			t.Fatalf("tags are replaced: %v", w.Data)
		}
	})
}

// Seed document 1, limits: "interval | queues.get_queue_metrics,
// workers.get_activity_report, workers.get_stats | minimum 1 second".
func TestSeedStatsIntervalMinimum(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		now := time.Now().Unix()
		for _, interval := range []int{0, -1} {
			e.Call(t, "workers.get_stats", map[string]any{"from_date": now - 3600, "to_date": now, "interval": interval,
				"items": []map[string]any{{"key": "cpu_usage"}}}).Err(t, 400, 12)
			e.Call(t, "workers.get_activity_report", map[string]any{"from_date": now - 3600, "to_date": now, "interval": interval}).Err(t, 400, 12)
			e.Call(t, "queues.get_queue_metrics", map[string]any{"from_date": now - 3600, "to_date": now, "interval": interval}).Err(t, 400, 12)
		}
		e.Call(t, "workers.get_stats", map[string]any{"from_date": now - 3600, "to_date": now, "interval": 1,
			"items": []map[string]any{{"key": "cpu_usage"}}}).OK(t)
	})
}
