package workers_test

import (
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/testenv"
)

func TestStatusReport(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
		clk := fixClock(e, t0)
		def := e.Call(t, "queues.get_default", nil).OK(t).Str("id")
		other := e.Call(t, "queues.create", map[string]any{"name": "other"}).OK(t).Str("id")
		project := e.Call(t, "projects.create", map[string]any{"name": "agent work"}).OK(t).Str("id")
		task := e.Call(t, "tasks.create", map[string]any{"name": "run me", "type": "training", "project": project}).OK(t).Str("id")

		// An unknown worker reporting is registered (clearml-agent execute
		// reports without registering); the agent sends milliseconds.
		e.Call(t, "workers.status_report", map[string]any{"worker": "agent-1", "timestamp": t0.UnixMilli(), "task": task,
			"queue": def, "queues": []string{def, other}, "tags": []string{"a"},
			"machine_stats": map[string]any{"cpu_usage": []float64{12.5}, "memory_used": 1024}}).OK(t)
		w := &testenv.Response{Data: worker(t, e.Call(t, "workers.get_all", nil).OK(t), "agent-1")}
		if w.Str("task.id") != task || w.Str("task.name") != "run me" || w.Data["task"].(map[string]any)["running_time"] == nil ||
			w.Str("project.id") != project || w.Str("project.name") != "agent work" || w.Str("queue.id") != def ||
			w.Str("queue.name") != "default" || len(w.List("queues")) != 2 || w.Num("register_timeout") != 600 ||
			w.Str("last_report_time") != "2025-03-01T12:00:00+00:00" {
			t.Fatalf("reported worker: %v", w.Data)
		}
		tr := e.Call(t, "tasks.get_by_id", map[string]any{"task": task}).OK(t)
		if tr.Str("task.last_worker") != "agent-1" || tr.Str("task.last_worker_report") != "2025-03-01T12:00:00+00:00" ||
			tr.Str("task.last_update") != "2025-03-01T12:00:00+00:00" {
			t.Fatalf("the reported task records its worker: %s", tr.Raw)
		}

		// Without task and queue both are cleared; an empty queues list
		// keeps the queues; absent tags clear the tags.
		clk.advance(30 * time.Second)
		e.Call(t, "workers.status_report", map[string]any{"worker": "agent-1", "timestamp": t0.Unix() + 30, "queues": []string{}}).OK(t)
		w = &testenv.Response{Data: worker(t, e.Call(t, "workers.get_all", nil).OK(t), "agent-1")}
		if w.Data["task"] != nil || w.Data["project"] != nil || w.Data["queue"] != nil || len(w.List("queues")) != 2 ||
			len(w.List("tags")) != 0 || w.Str("last_activity_time") != "2025-03-01T12:00:30+00:00" {
			t.Fatalf("after an idle report: %v", w.Data)
		}
		e.Call(t, "workers.status_report", map[string]any{"worker": "agent-1", "timestamp": t0.Unix() + 30, "queues": []string{other}}).OK(t)
		w = &testenv.Response{Data: worker(t, e.Call(t, "workers.get_all", nil).OK(t), "agent-1")}
		if len(w.List("queues")) != 1 || w.Str("queues.0.id") != other {
			t.Fatalf("queues replaced: %v", w.Data)
		}

		// An unknown task fails the call, but the activity is recorded.
		clk.advance(30 * time.Second)
		e.Call(t, "workers.status_report", map[string]any{"worker": "agent-1", "timestamp": t0.Unix() + 60, "task": "nope"}).Err(t, 400, 101)
		w = &testenv.Response{Data: worker(t, e.Call(t, "workers.get_all", nil).OK(t), "agent-1")}
		if w.Str("last_activity_time") != "2025-03-01T12:01:00+00:00" || w.Str("last_report_time") != "2025-03-01T12:00:30+00:00" {
			t.Fatalf("a failed report still counts as activity: %v", w.Data)
		}

		// The report keeps the worker alive past its registration timeout.
		e.Call(t, "workers.register", map[string]any{"worker": "short", "timeout": 60}).OK(t)
		clk.advance(50 * time.Second)
		e.Call(t, "workers.status_report", map[string]any{"worker": "short", "timestamp": t0.Unix()}).OK(t)
		clk.advance(50 * time.Second)
		if got := workerIDs(e.Call(t, "workers.get_all", nil).OK(t)); !same(got, "agent-1", "short") {
			t.Fatalf("report extends the timeout: %v", got)
		}
		clk.advance(11 * time.Second)
		if got := workerIDs(e.Call(t, "workers.get_all", nil).OK(t)); !same(got, "agent-1") {
			t.Fatalf("short expired: %v", got)
		}

		bad := []struct {
			body map[string]any
			sub  int
			word string
		}{
			{map[string]any{"worker": "agent-1"}, 12, "timestamp"},
			{map[string]any{"timestamp": 1}, 12, "worker"},
			{map[string]any{"worker": "agent-1", "timestamp": "now"}, 12, "timestamp"},
			{map[string]any{"worker": "agent-1", "timestamp": -1}, 12, "timestamp"},
			{map[string]any{"worker": "agent-1", "timestamp": 1, "machine_stats": map[string]any{"cpu_usage": "high"}}, 12, "cpu_usage"},
			{map[string]any{"worker": "agent-1", "timestamp": 1, "machine_stats": map[string]any{"memory_used": []int{1}}}, 12, "memory_used"},
			{map[string]any{"worker": "agent-1", "timestamp": 1, "machine_stats": []int{1}}, 12, "machine_stats"},
			{map[string]any{"worker": "agent-1", "timestamp": 1, "queues": "q"}, 12, "queues"},
		}
		for _, b := range bad {
			r := e.Call(t, "workers.status_report", b.body).Err(t, 400, b.sub)
			if !strings.Contains(r.Msg(), b.word) {
				t.Fatalf("%v: message should name %q: %s", b.body, b.word, r.Msg())
			}
		}
	})
}
