package events_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
	"github.com/trove-ml/trove/internal/testenv"
)

func msgs(r *testenv.Response) string {
	var out []string
	for _, x := range r.List("events") {
		out = append(out, x.(map[string]any)["msg"].(string))
	}
	return strings.Join(out, ",")
}

func TestTaskLog(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		task := newTask(t, e, "logs")
		var evs []any
		for i, ts := range []int{1, 2, 2, 3, 4, 5, 5, 5, 6, 7} {
			evs = append(evs, ev{"type": "log", "task": task, "timestamp": ts, "level": "info", "msg": fmt.Sprintf("m%d", i)})
		}
		batch(t, e, evs...).OK(t)
		cases := []struct {
			name string
			body map[string]any
			want string
		}{
			{"newest first, completed on the last time", map[string]any{"batch_size": 3}, "m9,m8,m7,m6,m5"},
			{"oldest first in the page", map[string]any{"batch_size": 3, "order": "asc"}, "m5,m6,m7,m8,m9"},
			{"earlier than a time", map[string]any{"batch_size": 3, "from_timestamp": 5}, "m4,m3,m2,m1"},
			{"from the start", map[string]any{"batch_size": 2, "navigate_earlier": false}, "m0,m1,m2"},
			{"later than a time, newest first", map[string]any{"batch_size": 2, "navigate_earlier": false, "from_timestamp": 5, "order": "desc"}, "m9,m8"},
			{"the SDK's console read", map[string]any{"batch_size": 2, "navigate_earlier": true, "order": "asc"}, "m8,m9"},
			{"metric filter", map[string]any{"metrics": []map[string]any{{"metric": "x"}}}, ""},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				tc.body["task"] = task
				r := e.Call(t, "events.get_task_log", tc.body).OK(t)
				if got := msgs(r); got != tc.want {
					t.Fatalf("got %s want %s", got, tc.want)
				}
				if r.Num("returned") != float64(len(r.List("events"))) {
					t.Fatalf("bad returned")
				}
				if tc.want != "" && r.Num("total") != 10 {
					t.Fatalf("bad total %v", r.Num("total"))
				}
			})
		}
		download := func(query string) *testenv.Response {
			return e.Do(t, "events.download_task_log?task="+task+query, "", func(h http.Header) {
				h.Set("Authorization", "Bearer "+e.Token)
			})
		}
		t.Run("download json", func(t *testing.T) {
			r := download("")
			lines := strings.Split(strings.TrimSpace(string(r.Raw)), "\n")
			if r.Status != 200 || len(lines) != 10 || !strings.HasPrefix(lines[0], `{"asctime":1,"level":"info"`) || strings.Contains(lines[0], `"task"`) {
				t.Fatalf("bad json download %d %q", r.Status, r.Raw)
			}
			if !strings.Contains(r.Header.Get("Content-Disposition"), "task_"+task+".log") {
				t.Fatalf("bad disposition %q", r.Header.Get("Content-Disposition"))
			}
		})
		t.Run("download text", func(t *testing.T) {
			r := download("&line_type=text")
			if !strings.HasPrefix(string(r.Raw), "1 test-worker info m0\n2 test-worker info m1\n") {
				t.Fatalf("bad text download %q", r.Raw)
			}
			r = download("&line_type=text&line_format=%7Blevel:%3E6%7D%7C%7B%7Bx%7D%7D%7Bmsg%7D")
			if !strings.HasPrefix(string(r.Raw), "  info|{x}m0\n") {
				t.Fatalf("bad formatted download %q", r.Raw)
			}
			download("&line_type=text&line_format=%7Bnope%7D").Err(t, 400, 16)
			download("&line_type=text&line_format=%7Bmsg").Err(t, 400, 16)
			download("&line_type=text&line_format=").Err(t, 400, 11)
			download("").OK(t)
		})
		t.Run("clear with threshold", func(t *testing.T) {
			now := time.Now().UnixMilli()
			other := newTask(t, e, "clear")
			batch(t, e, ev{"type": "log", "task": other, "msg": "old", "timestamp": now - 1000_000}, ev{"type": "log", "task": other, "msg": "new", "timestamp": now - 1000}).OK(t)
			r := e.Call(t, "events.clear_task_log", map[string]any{"task": other, "threshold_sec": 100}).OK(t)
			if r.Num("deleted") != 1 {
				t.Fatalf("deleted %v", r.Num("deleted"))
			}
			if got := msgs(e.Call(t, "events.get_task_log", map[string]any{"task": other}).OK(t)); got != "new" {
				t.Fatalf("left %s", got)
			}
			if e.Call(t, "events.clear_task_log", map[string]any{"task": other}).OK(t).Num("deleted") != 1 {
				t.Fatal("clear all did not delete")
			}
			e.Call(t, "events.clear_task_log", map[string]any{"task": other, "threshold_sec": -1}).Err(t, 400, 12)
		})
		t.Run("clear by metric", func(t *testing.T) {
			other := newTask(t, e, "clear by metric")
			batch(t, e, ev{"type": "log", "task": other, "msg": "plain", "timestamp": 1},
				ev{"type": "log", "task": other, "msg": "kept", "metric": "keep", "variant": "v", "timestamp": 2},
				ev{"type": "log", "task": other, "msg": "gone", "metric": "drop", "variant": "v", "timestamp": 3}).OK(t)
			// exclude_metrics retains those metrics; lines without a metric go
			r := e.Call(t, "events.clear_task_log", map[string]any{"task": other, "exclude_metrics": []string{"keep"}}).OK(t)
			if r.Num("deleted") != 2 {
				t.Fatalf("deleted %v", r.Num("deleted"))
			}
			left := e.Call(t, "events.get_task_log", map[string]any{"task": other}).OK(t)
			if got := msgs(left); got != "kept" || left.Num("total") != 1 {
				t.Fatalf("left %s: %s", got, left.Raw)
			}
			batch(t, e, ev{"type": "log", "task": other, "msg": "again", "metric": "drop", "variant": "v", "timestamp": 4}).OK(t)
			// include_metrics deletes only those metrics
			if n := e.Call(t, "events.clear_task_log", map[string]any{"task": other, "include_metrics": []string{"drop"}}).OK(t).Num("deleted"); n != 1 {
				t.Fatalf("deleted %v", n)
			}
			if got := msgs(e.Call(t, "events.get_task_log", map[string]any{"task": other}).OK(t)); got != "kept" {
				t.Fatalf("left %s", got)
			}
		})
	})
}

func TestDeleteEvents(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		task := newTask(t, e, "delete")
		seedMixed(t, e, task)
		published := newTask(t, e, "published", func(t *store.Task) { t.Status = "published" })
		locked := scalar(published, "m", "v", 1, 1)
		locked["allow_locked"] = true
		batch(t, e, ev{"type": "log", "task": published, "msg": "x", "allow_locked": true}, locked).OK(t)
		model := newModel(t, e, "model", false)
		ready := newModel(t, e, "ready", true)
		batch(t, e, ev{"type": "training_stats_scalar", "model_event": true, "task": model, "metric": "m", "variant": "v", "iter": 1, "value": 2}).OK(t)
		batch(t, e, ev{"type": "training_stats_scalar", "model_event": true, "task": ready, "metric": "m", "variant": "v", "iter": 1, "value": 2}).Err(t, 400, 131)
		batch(t, e, ev{"type": "training_stats_scalar", "model_event": true, "model": ready, "allow_locked": true, "metric": "m", "variant": "v", "iter": 1, "value": 2}).OK(t)
		batch(t, e, ev{"type": "log", "model_event": true, "task": model, "msg": "x"}).Err(t, 400, 131)

		r := e.Call(t, "events.delete_for_task", map[string]any{"task": task}).OK(t)
		if r.Num("deleted") != 56 {
			t.Fatalf("deleted %v", r.Num("deleted"))
		}
		if all, _ := pageAll(t, e, map[string]any{"task": task}); len(all) != 0 {
			t.Fatalf("%d events left", len(all))
		}
		if len(e.Call(t, "events.get_scalar_metrics_and_variants", map[string]any{"task": task}).OK(t).Data["metrics"].(map[string]any)) != 0 {
			t.Fatal("series left")
		}
		e.Call(t, "events.delete_for_task", map[string]any{"task": published}).Err(t, 400, 101)
		if e.Call(t, "events.delete_for_task", map[string]any{"task": published, "allow_locked": true}).OK(t).Num("deleted") != 2 {
			t.Fatal("locked delete")
		}
		e.Call(t, "events.delete_for_task", map[string]any{"task": "missing"}).Err(t, 400, 101)
		other := e.Login(t, otherUser.AccessKey, otherUser.SecretKey)
		e.CallAs(t, other, "events.delete_for_task", map[string]any{"task": published, "allow_locked": true}).Err(t, 400, 101)

		if e.Call(t, "events.delete_for_model", map[string]any{"model": model}).OK(t).Num("deleted") != 1 {
			t.Fatal("model delete")
		}
		e.Call(t, "events.delete_for_model", map[string]any{"model": ready}).Err(t, 400, 201)
		e.Call(t, "events.delete_for_model", map[string]any{"model": ready, "allow_locked": true}).OK(t)
		e.Call(t, "events.delete_for_model", map[string]any{}).Err(t, 400, 12)

		// the store deletion tasks.delete and tasks.reset call
		again := newTask(t, e, "cascade")
		seedMixed(t, e, again)
		var n int64
		err := e.App.DB.Tx(context.Background(), func(q store.Querier) error {
			var err error
			n, err = eventstore.Of(e.App.DB).DeleteFor(context.Background(), q, []string{again})
			return err
		})
		if err != nil || n != 56 {
			t.Fatalf("deleter: %d %v", n, err)
		}

		e.Call(t, "events.clear_scroll", map[string]any{"scroll_id": "whatever"}).OK(t)
		e.Call(t, "events.clear_scroll", map[string]any{}).Err(t, 400, 12)
	}, testenv.WithUsers(otherUser))
}

func TestDeleteFreesSpace(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		task := newTask(t, e, "space")
		var evs []any
		for i := 0; i < 20000; i++ {
			evs = append(evs, scalar(task, "m", fmt.Sprint("v", i%4), i/4, float64(i)))
		}
		batch(t, e, evs...).OK(t)
		e.Call(t, "events.delete_for_task", map[string]any{"task": task}).OK(t)
		ctx := context.Background()
		// the points and rollups go with the purge job, as in `trove serve`
		if err := (&events.Purger{DB: e.App.DB}).Run(ctx); err != nil {
			t.Fatal(err)
		}
		free, err := eventstore.Of(e.App.DB).ReclaimSpace(ctx, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if e.Backend == "sqlite" {
			if free == 0 {
				t.Fatal("deleting 20,000 points freed no page")
			}
			if again, _ := eventstore.Of(e.App.DB).ReclaimSpace(ctx, 1<<20); again != 0 {
				t.Fatalf("%d free pages left after reclaiming", again)
			}
		}
	})
}
