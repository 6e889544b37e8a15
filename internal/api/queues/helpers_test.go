package queues_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/testenv"
)

// newQueue creates a queue and returns its id.
func newQueue(t testing.TB, e *testenv.Env, name string, extra ...map[string]any) string {
	t.Helper()
	body := map[string]any{"name": name}
	for _, x := range extra {
		for k, v := range x {
			body[k] = v
		}
	}
	return e.Call(t, "queues.create", body).OK(t).Str("id")
}

// newTask creates a task that can be enqueued and returns its id.
func newTask(t testing.TB, e *testenv.Env, name string) string {
	t.Helper()
	return e.Call(t, "tasks.create", map[string]any{"name": name, "type": "training",
		"script": map[string]any{"entry_point": "train.py", "repository": "https://example.com/r.git"}}).OK(t).Str("id")
}

// newTasks creates n tasks.
func newTasks(t testing.TB, e *testenv.Env, n int) []string {
	t.Helper()
	out := make([]string, n)
	for i := range out {
		out[i] = newTask(t, e, fmt.Sprintf("task-%d", i))
	}
	return out
}

// entryTasks lists the task ids of a queue's entries, top first.
func entryTasks(t testing.TB, e *testenv.Env, queue string) []string {
	t.Helper()
	r := e.Call(t, "queues.get_by_id", map[string]any{"queue": queue}).OK(t)
	var out []string
	for _, it := range r.List("queue.entries") {
		out = append(out, it.(map[string]any)["task"].(string))
	}
	return out
}

// clock is a settable test clock installed as the server's clock.
type clock struct{ now time.Time }

func fixClock(e *testenv.Env, start time.Time) *clock {
	c := &clock{now: start}
	e.App.Deps.Now = func() time.Time { return c.now }
	return c
}

func sameList(a []string, b ...string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
