package events_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

// newTask stores a task of the default company directly (the events
// service needs tasks, not the tasks service) and returns its id.
func newTask(t *testing.T, e *testenv.Env, name string, mods ...func(*store.Task)) string {
	t.Helper()
	now := jsonx.Now()
	task := &store.Task{ID: ids.New(), Company: auth.DefaultCompanyID, User: auth.AdminUserID, Name: name,
		Type: "training", Status: "created", Created: now, LastUpdate: now, LastChange: now}
	task.Normalize()
	for _, m := range mods {
		m(task)
	}
	if err := e.App.DB.Tasks().Insert(context.Background(), e.App.DB.Write(), task); err != nil {
		t.Fatalf("insert task: %v", err)
	}
	return task.ID
}

// newModel stores a model of the default company and returns its id.
func newModel(t *testing.T, e *testenv.Env, name string, ready bool) string {
	t.Helper()
	now := jsonx.Now()
	m := &store.Model{ID: ids.New(), Company: auth.DefaultCompanyID, User: auth.AdminUserID, Name: name,
		Created: now, LastUpdate: now, LastChange: now, Ready: ready, Tags: []string{}, SystemTags: []string{}}
	if err := e.App.DB.Models().Insert(context.Background(), e.App.DB.Write(), m); err != nil {
		t.Fatalf("insert model: %v", err)
	}
	return m.ID
}

func getTask(t *testing.T, e *testenv.Env, id string) *store.Task {
	t.Helper()
	task, err := e.App.DB.Tasks().Get(context.Background(), e.App.DB.Read(), id)
	if err != nil {
		t.Fatalf("get task: %v", err)
	}
	return task
}

// batch sends events as a JSON-lines events.add_batch.
func batch(t *testing.T, e *testenv.Env, evs ...any) *testenv.Response {
	t.Helper()
	lines := make([]string, len(evs))
	for i, ev := range evs {
		switch x := ev.(type) {
		case string:
			lines[i] = x
		default:
			b, err := json.Marshal(x)
			if err != nil {
				t.Fatal(err)
			}
			lines[i] = string(b)
		}
	}
	return e.Do(t, "events.add_batch", strings.Join(lines, "\n"), func(h http.Header) {
		h.Set("Authorization", "Bearer "+e.Token)
		h.Set("Content-Type", "application/json-lines")
		h.Set("X-ClearML-Worker", "test-worker")
	})
}

// ev is a shorthand for an event object.
type ev = map[string]any

func scalar(task, metric, variant string, iter int, value float64) ev {
	return ev{"type": "training_stats_scalar", "task": task, "metric": metric, "variant": variant, "iter": iter, "value": value, "timestamp": 1700000000000 + iter}
}
