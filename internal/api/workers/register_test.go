package workers_test

import (
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/testenv"
)

func TestRegisterAndList(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
		clk := fixClock(e, t0)
		def := e.Call(t, "queues.get_default", nil).OK(t).Str("id")
		me := e.Call(t, "users.get_current_user", nil).OK(t)
		company, user := me.Str("user.company.id"), me.Str("user.id")
		e.Call(t, "workers.register", map[string]any{"worker": "w1", "queues": []string{def}, "tags": []string{"gpu"}, "timeout": 100}).OK(t)
		e.Call(t, "workers.register", map[string]any{"worker": "w2", "system_tags": []string{"sys"}}).OK(t)
		task := newTask(t, e, "waiting")
		e.Call(t, "queues.add_task", map[string]any{"queue": def, "task": task}).OK(t)

		all := e.Call(t, "workers.get_all", nil).OK(t)
		if !same(workerIDs(all), "w1", "w2") {
			t.Fatalf("workers: %s", all.Raw)
		}
		w1 := worker(t, all, "w1")
		r := &testenv.Response{Data: w1}
		if r.Str("key") != "worker_"+company+"_"+user+"_w1" || r.Str("user.id") != user || r.Str("company.id") != company ||
			r.Str("company.name") == "" || r.Str("ip") != "127.0.0.1" || r.Num("register_timeout") != 100 ||
			r.Str("register_time") != "2025-03-01T12:00:00+00:00" || r.Str("last_activity_time") != "2025-03-01T12:00:00+00:00" {
			t.Fatalf("w1: %v", w1)
		}
		if r.Str("queues.0.id") != def || r.Str("queues.0.name") != "default" || r.Num("queues.0.num_tasks") != 1 ||
			r.Str("queues.0.next_task.id") != task || r.Str("queues.0.next_task.name") != "waiting" {
			t.Fatalf("w1 queues: %v", w1)
		}
		if tags := r.List("tags"); len(tags) != 1 || tags[0] != "gpu" || r.List("system_tags") == nil {
			t.Fatalf("w1 tags: %v", w1)
		}
		if w2 := worker(t, all, "w2"); w2["register_timeout"] != 600.0 || len(w2["queues"].([]any)) != 0 {
			t.Fatalf("w2 gets the default timeout and no queues: %v", w2)
		}
		filters := []struct {
			name string
			body map[string]any
			want []string
		}{
			{"tag", map[string]any{"tags": []string{"gpu"}}, []string{"w1"}},
			{"tag excluded", map[string]any{"tags": []string{"-gpu"}}, []string{"w2"}},
			{"system tag", map[string]any{"system_tags": []string{"sys"}}, []string{"w2"}},
			{"tags and system tags", map[string]any{"tags": []string{"gpu"}, "system_tags": []string{"sys"}}, []string{}},
			{"null tags are no filter (the reference)", map[string]any{"tags": nil, "system_tags": nil, "last_seen": 100}, []string{"w1", "w2"}},
			{"tags any of, one unknown", map[string]any{"tags": []string{"gpu", "nope"}}, []string{"w1"}},
			{"pattern ?", map[string]any{"worker_pattern": "w?"}, []string{"w1", "w2"}},
			{"pattern *", map[string]any{"worker_pattern": "*1"}, []string{"w1"}},
			{"pattern without match", map[string]any{"worker_pattern": "w"}, []string{}},
		}
		for _, f := range filters {
			t.Run(f.name, func(t *testing.T) {
				if got := workerIDs(e.Call(t, "workers.get_all", f.body).OK(t)); !same(got, f.want...) {
					t.Fatalf("want %v, got %v", f.want, got)
				}
				if n := e.Call(t, "workers.get_count", f.body).OK(t).Num("count"); int(n) != len(f.want) {
					t.Fatalf("count %v, want %d", n, len(f.want))
				}
			})
		}
		// w1 expires 100 s after it registered, without any request.
		clk.advance(101 * time.Second)
		if got := workerIDs(e.Call(t, "workers.get_all", nil).OK(t)); !same(got, "w2") {
			t.Fatalf("after w1's timeout: %v", got)
		}
		// last_seen drops workers inactive for longer.
		clk.advance(50 * time.Second)
		if got := workerIDs(e.Call(t, "workers.get_all", map[string]any{"last_seen": 100}).OK(t)); len(got) != 0 {
			t.Fatalf("last_seen 100: %v", got)
		}
		if got := workerIDs(e.Call(t, "workers.get_all", map[string]any{"last_seen": 0}).OK(t)); !same(got, "w2") {
			t.Fatalf("last_seen 0 disables the filter: %v", got)
		}
		if n := e.Call(t, "workers.get_count", nil).OK(t).Num("count"); n != 1 {
			t.Fatalf("get_count ignores last_seen by default: %v", n)
		}
		e.Call(t, "workers.unregister", map[string]any{"worker": "w2"}).OK(t)
		e.Call(t, "workers.unregister", map[string]any{"worker": "never-registered"}).OK(t)
		if n := e.Call(t, "workers.get_count", nil).OK(t).Num("count"); n != 0 {
			t.Fatalf("unregistered: %v", n)
		}
		bad := []struct {
			op   string
			body any
			code int
			sub  int
			word string
		}{
			{"workers.register", map[string]any{}, 400, 12, "worker"},
			{"workers.register", map[string]any{"worker": "x", "timeout": -5}, 400, 1002, "timeout"},
			{"workers.register", map[string]any{"worker": "x", "timeout": "long"}, 400, 12, "timeout"},
			{"workers.register", map[string]any{"worker": "x", "queues": []string{def, "nope"}}, 400, 701, "nope"},
			{"workers.register", map[string]any{"worker": "x", "tags": "gpu"}, 400, 12, "tags"},
			{"workers.unregister", map[string]any{}, 400, 12, "worker"},
			{"workers.get_all", map[string]any{"last_seen": -1}, 400, 12, "last_seen"},
			{"workers.get_all", map[string]any{"last_seen": "x"}, 400, 12, "last_seen"},
			{"workers.get_count", map[string]any{"tags": map[string]any{"a": 1}}, 400, 12, "tags"},
			{"workers.register", `{"worker": `, 400, 0, ""},
		}
		for _, b := range bad {
			r := e.Call(t, b.op, b.body).Err(t, b.code, b.sub)
			if !strings.Contains(r.Msg(), b.word) {
				t.Fatalf("%s %v: message should name %q: %s", b.op, b.body, b.word, r.Msg())
			}
		}
		if n := e.Call(t, "workers.get_count", nil).OK(t).Num("count"); n != 0 {
			t.Fatalf("refused registrations left workers: %v", n)
		}
	})
}

// TestWorkersSurviveRestart checks that workers live in the database: a
// second Trove process on the same database sees them.
func TestWorkersSurviveRestart(t *testing.T) {
	for _, backend := range testenv.Backends() {
		t.Run(backend, func(t *testing.T) {
			first := testenv.New(t, backend)
			first.Call(t, "workers.register", map[string]any{"worker": "persistent"}).OK(t)
			second := testenv.New(t, backend, func(c *config.Config) {
				c.DataDir, c.DB = first.App.Cfg.DataDir, first.App.Cfg.DB
			})
			if got := workerIDs(second.Call(t, "workers.get_all", nil).OK(t)); !same(got, "persistent") {
				t.Fatalf("second process sees %v", got)
			}
			second.Call(t, "workers.unregister", map[string]any{"worker": "persistent"}).OK(t)
			if n := first.Call(t, "workers.get_count", nil).OK(t).Num("count"); n != 0 {
				t.Fatalf("first process still counts %v", n)
			}
		})
	}
}
