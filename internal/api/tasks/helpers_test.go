package tasks_test

import (
	"context"
	"net/http"
	"sort"
	"testing"

	"github.com/trove-ml/trove/internal/apierr"
	idgen "github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"

	"github.com/trove-ml/trove/internal/testenv"
)

// obj is a JSON object literal.
type obj = map[string]any

// mkProject creates a project and returns its id.
func mkProject(t *testing.T, e *testenv.Env, name string) string {
	t.Helper()
	return e.Call(t, "projects.create", obj{"name": name}).OK(t).Str("id")
}

// mkTask creates a task with extra fields and returns its id.
func mkTask(t *testing.T, e *testenv.Env, name string, extra obj) string {
	t.Helper()
	body := obj{"name": name, "type": "training"}
	for k, v := range extra {
		body[k] = v
	}
	return e.Call(t, "tasks.create", body).OK(t).Str("id")
}

// getTask reads a task back.
func getTask(t *testing.T, e *testenv.Env, id string) map[string]any {
	t.Helper()
	return e.Call(t, "tasks.get_by_id", obj{"task": id}).OK(t).Data["task"].(map[string]any)
}

// status reads a task's status.
func status(t *testing.T, e *testenv.Env, id string) string {
	t.Helper()
	s, _ := getTask(t, e, id)["status"].(string)
	return s
}

// mkQueue creates a queue directly in the store (queues.* is another service).
func mkQueue(t *testing.T, e *testenv.Env, name string, systemTags ...string) string {
	t.Helper()
	now := jsonx.Now()
	if systemTags == nil {
		systemTags = []string{}
	}
	q := &store.Queue{ID: idgen.New(), Company: companyOf(t, e), Name: name, Created: now, LastUpdate: now,
		Tags: []string{}, SystemTags: systemTags, Metadata: map[string]*store.MetadataItem{}}
	if err := e.App.DB.Queues().Insert(context.Background(), e.App.DB.Write(), q); err != nil {
		t.Fatalf("create queue: %v", err)
	}
	return q.ID
}

// companyOf is the admin's company (read from a task it creates).
func companyOf(t *testing.T, e *testenv.Env) string {
	t.Helper()
	id := mkTask(t, e, "company probe", nil)
	c, _ := getTask(t, e, id)["company"].(string)
	e.Call(t, "tasks.delete", obj{"task": id, "force": true}).OK(t)
	return c
}

// queueEntries lists the task ids in a queue, in order.
func queueEntries(t *testing.T, e *testenv.Env, queue string) []string {
	t.Helper()
	list, err := e.App.DB.QueueEntries(context.Background(), e.App.DB.Read(), queue, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, x := range list {
		out = append(out, x.Task)
	}
	return out
}

// isAPI reports an API error with code and subcode.
func isAPI(err error, code, subcode int) bool { return apierr.Is(err, code, subcode) }

// jsonLines sets the JSON-lines content type and the bearer token.
func jsonLines(token string) func(h http.Header) {
	return func(h http.Header) {
		h.Set("Content-Type", "application/json-lines")
		h.Set("Authorization", "Bearer "+token)
	}
}

func sortStrings(s []string) { sort.Strings(s) }
