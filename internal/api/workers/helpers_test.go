package workers_test

import (
	"sort"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/testenv"
)

// clock is a settable test clock installed as the server's clock.
type clock struct{ now time.Time }

func fixClock(e *testenv.Env, start time.Time) *clock {
	c := &clock{now: start}
	e.App.Deps.Now = func() time.Time { return c.now }
	return c
}

func (c *clock) advance(d time.Duration) { c.now = c.now.Add(d) }

// workerIDs lists the ids of a workers.get_all answer, sorted.
func workerIDs(r *testenv.Response) []string {
	out := []string{}
	for _, it := range r.List("workers") {
		out = append(out, it.(map[string]any)["id"].(string))
	}
	sort.Strings(out)
	return out
}

func same(a []string, b ...string) bool {
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

// worker finds a worker of a get_all answer by id.
func worker(t *testing.T, r *testenv.Response, id string) map[string]any {
	t.Helper()
	for _, it := range r.List("workers") {
		if m := it.(map[string]any); m["id"] == id {
			return m
		}
	}
	t.Fatalf("worker %s not listed: %s", id, r.Raw)
	return nil
}

func newTask(t *testing.T, e *testenv.Env, name string) string {
	t.Helper()
	return e.Call(t, "tasks.create", map[string]any{"name": name, "type": "training"}).OK(t).Str("id")
}
