package tasks_test

import (
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

// TestStartedAndFailedTimes covers the run times of server 2.3: tasks.started
// on a task that is not running starts a new run (started now, the old
// completed and active_duration cleared), on a running one keeps its start;
// tasks.failed sets completed.
func TestStartedAndFailedTimes(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		now := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
		e.App.Deps.Now = func() time.Time { return now }
		old := jsonx.Time{Time: now.Add(-48 * time.Hour)}
		dur := int64(99)
		cases := []struct {
			name, status string
			force        bool
			wantStarted  time.Time
		}{
			{"a created task starts now", "created", false, now},
			{"a stopped task restarted with force starts a new run", "stopped", true, now},
			{"a running task keeps its start", "in_progress", true, old.Time},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				id := mkTask(t, e, "run "+c.name, nil)
				patchTask(t, e, id, func(tk *store.Task) {
					tk.Status, tk.ActiveDuration = c.status, &dur
					if c.status != "created" {
						tk.Started, tk.Completed = &old, &old
					}
				})
				e.Call(t, "tasks.started", obj{"task": id, "force": c.force}).OK(t)
				got := getTask(t, e, id)
				if s, _ := got["started"].(string); s == "" || !mustTime(t, s).Equal(c.wantStarted) {
					t.Fatalf("started = %v, want %v", got["started"], c.wantStarted)
				}
				if c.wantStarted.Equal(now) && (got["completed"] != nil || got["active_duration"] != nil) {
					t.Fatalf("a new run keeps the old end: %v %v", got["completed"], got["active_duration"])
				}
			})
		}
		id := mkTask(t, e, "fails", nil)
		e.Call(t, "tasks.started", obj{"task": id}).OK(t)
		now = now.Add(time.Hour)
		e.Call(t, "tasks.failed", obj{"task": id}).OK(t)
		if c, _ := getTask(t, e, id)["completed"].(string); c == "" || !mustTime(t, c).Equal(now) {
			t.Fatalf("failed sets completed: %v", c)
		}
	})
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999"} {
		if tm, err := time.Parse(layout, s); err == nil {
			return tm
		}
	}
	t.Fatalf("bad time %q", s)
	return time.Time{}
}
