package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/testenv"
)

// wantJob is a job of the list as the server runs it.
type wantJob struct {
	name      string
	every     time.Duration // 0: start-up step
	exclusive bool
}

// allJobs is every start-up step and background job, in list order.
var allJobs = []wantJob{
	{"tasks.silent_watchdog", 900 * time.Second, true},
	{"default queue", 0, true},
	{"queue metrics refresh", 60 * time.Second, true},
	{"expired workers sweep", 10 * time.Minute, true},
	{"events scroll key", 0, false},
	{"events space reuse", 0, false},
	{"events rollups", 2 * time.Second, true},
	{"events purge", 2 * time.Second, true},
	{"events packing", 2 * time.Second, true},
	{"events staged points", time.Second, true},
	{"events name counts", time.Second, true},
	{"events scroll sweep", 10 * time.Minute, true},
	{"events space reclaim", 30 * time.Second, true},
	{"mlflow latest metrics", 30 * time.Second, true},
	{"stats retention", 10 * time.Minute, true},
}

// TestJobList: the one list holds every job of the domain packages and
// the app, each named once, with a function, and either a positive
// period or none (a start-up step); the retention job is left out when
// samples are kept forever.
func TestJobList(t *testing.T) {
	for _, c := range []struct {
		name      string
		retention config.Duration
		want      []wantJob
	}{
		{name: "default", retention: config.DefaultStatsRetention, want: allJobs},
		{name: "retention off", retention: 0, want: allJobs[:len(allJobs)-1]},
	} {
		t.Run(c.name, func(t *testing.T) {
			testenv.Each(t, func(t *testing.T, e *testenv.Env) {
				jobs := e.App.Jobs()
				seen := map[string]bool{}
				var got []wantJob
				for _, j := range jobs {
					switch {
					case j.Name == "":
						t.Errorf("a job has no name: %+v", j)
					case seen[j.Name]:
						t.Errorf("job %q listed twice", j.Name)
					case j.Run == nil:
						t.Errorf("job %q has no function", j.Name)
					case j.Every < 0:
						t.Errorf("job %q has a negative period %s", j.Name, j.Every)
					case j.AtStart() != (j.Every == 0):
						t.Errorf("job %q: AtStart %v with period %s", j.Name, j.AtStart(), j.Every)
					}
					seen[j.Name] = true
					got = append(got, wantJob{j.Name, j.Every, j.Exclusive})
				}
				if fmt.Sprint(got) != fmt.Sprint(c.want) {
					t.Errorf("jobs\n%v\nwant\n%v", got, c.want)
				}
			}, func(cfg *config.Config) { cfg.StatsRetention = c.retention })
		})
	}
}

// TestStartupStepsOnSeveralNodes: the start-up steps ran on every node
// before it served: one default queue for the company, and the events
// scroll key stored once and loaded by each node, so that a scroll id
// one node issues opens on the other (on SQLite the nodes are one app).
func TestStartupStepsOnSeveralNodes(t *testing.T) {
	for _, backend := range testenv.Backends() {
		t.Run(backend, func(t *testing.T) {
			ns := nodes(t, backend, 2)
			a, b := ns[0], ns[len(ns)-1]
			key, err := a.App.DB.GetSetting(context.Background(), "events_scroll_secret")
			if err != nil || len(key) < 32 {
				t.Fatalf("stored scroll key %q, %v", key, err)
			}
			for i, n := range ns {
				if id := n.Call(t, "queues.get_default", map[string]any{}).OK(t).Str("id"); id == "" {
					t.Fatalf("node %d: no default queue", i)
				}
			}
			defaults := 0
			for _, q := range b.Call(t, "queues.get_all", map[string]any{}).OK(t).List("queues") {
				if q.(map[string]any)["name"] == "default" {
					defaults++
				}
			}
			if defaults != 1 {
				t.Fatalf("%d default queues, want 1", defaults)
			}
			task := a.Call(t, "tasks.create", map[string]any{"name": "scrolled", "type": "training"}).OK(t).Str("id")
			for i := range 3 {
				a.Call(t, "events.add", map[string]any{"type": "training_stats_scalar", "task": task, "metric": "m", "variant": "v",
					"iter": i, "value": float64(i), "timestamp": 1700000000000 + i}).OK(t)
			}
			first := a.Call(t, "events.get_task_events", map[string]any{"task": task, "batch_size": 1}).OK(t)
			// the id is signed with the stored key, not an unloaded one
			var state json.RawMessage
			stored := &events.Scrolls{DB: a.App.DB, Now: time.Now}
			if err := stored.LoadKey(context.Background()); err != nil {
				t.Fatal(err)
			}
			if err := stored.Open(first.Str("scroll_id"), auth.DefaultCompanyID, "task_events", &state); err != nil {
				t.Fatalf("the scroll id does not open with the stored key: %v", err)
			}
			unloaded := &events.Scrolls{DB: a.App.DB, Now: time.Now}
			if err := unloaded.Open(first.Str("scroll_id"), auth.DefaultCompanyID, "task_events", &state); err == nil {
				t.Fatal("the scroll id opens without the key")
			}
			next := b.Call(t, "events.get_task_events", map[string]any{"task": task, "batch_size": 1, "scroll_id": first.Str("scroll_id")}).OK(t)
			if len(first.List("events")) != 1 || len(next.List("events")) != 1 {
				t.Fatalf("pages of %d and %d events, want 1 each", len(first.List("events")), len(next.List("events")))
			}
			if fmt.Sprint(first.List("events")[0]) == fmt.Sprint(next.List("events")[0]) {
				t.Fatalf("the second node's page repeats the first: %v", next.List("events")[0])
			}
		})
	}
}
