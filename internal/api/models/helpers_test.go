package models_test

import (
	"context"
	"sort"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	idgen "github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

// obj is a JSON object literal.
type obj = map[string]any

// otherUser is a user of a second company, for visibility tests.
var otherUser = auth.FixedUser{ID: "other-user", Name: "other", AccessKey: "OTHERMODELKEY0000000", SecretKey: "other-model-secret-0000000000000", Role: "user", Company: "other-company"}

// mkModel creates a model (name and uri filled in) and returns its id.
func mkModel(t testing.TB, e *testenv.Env, name string, extra obj) string {
	t.Helper()
	body := obj{"name": name, "uri": "file:///tmp/" + name + ".pt"}
	for k, v := range extra {
		body[k] = v
	}
	return e.Call(t, "models.create", body).OK(t).Str("id")
}

// getModel reads a model back as the admin.
func getModel(t *testing.T, e *testenv.Env, id string) map[string]any {
	t.Helper()
	return e.Call(t, "models.get_by_id", obj{"model": id}).OK(t).Data["model"].(map[string]any)
}

// mkProject creates a project and returns its id.
func mkProject(t testing.TB, e *testenv.Env, name string) string {
	t.Helper()
	return e.Call(t, "projects.create", obj{"name": name}).OK(t).Str("id")
}

// taskFixture describes a task written straight into the store, so model
// rules can be tested from any task state without driving the tasks
// service's state machine.
type taskFixture struct {
	name, status, project string
	inputs, outputs       []string
	framework             string
	labels                map[string]int64
	design                map[string]any
}

// putTask stores a task of the admin's company and returns its id.
func putTask(t *testing.T, e *testenv.Env, f taskFixture) string {
	t.Helper()
	now := jsonx.Now()
	if f.name == "" {
		f.name = "fixture task"
	}
	if f.status == "" {
		f.status = "created"
	}
	tk := &store.Task{ID: idgen.New(), Company: auth.DefaultCompanyID, User: auth.AdminUserID, Name: f.name, Type: "training",
		Status: f.status, Project: f.project, Created: now, LastUpdate: now, LastChange: now}
	for i, m := range f.inputs {
		tk.Models.Input = append(tk.Models.Input, &store.TaskModelItem{Name: "in" + string(rune('a'+i)), Model: m})
	}
	for i, m := range f.outputs {
		tk.Models.Output = append(tk.Models.Output, &store.TaskModelItem{Name: "out" + string(rune('a'+i)), Model: m})
	}
	if f.framework != "" {
		tk.Execution.Framework = &f.framework
	}
	tk.Execution.ModelLabels, tk.Execution.ModelDesc = f.labels, f.design
	tk.Normalize()
	if err := e.App.DB.Tasks().Insert(context.Background(), e.App.DB.Write(), tk); err != nil {
		t.Fatalf("store task: %v", err)
	}
	return tk.ID
}

// getTask reads a task straight from the store.
func getTask(t *testing.T, e *testenv.Env, id string) *store.Task {
	t.Helper()
	tk, err := e.App.DB.Tasks().Get(context.Background(), e.App.DB.Read(), id)
	if err != nil {
		t.Fatalf("load task %s: %v", id, err)
	}
	return tk
}

// ids lists the id member of each item of a list in data.
func ids(r *testenv.Response, key string) []string {
	var out []string
	for _, it := range r.List(key) {
		out = append(out, it.(map[string]any)["id"].(string))
	}
	sort.Strings(out)
	return out
}

// sorted returns a sorted copy.
func sorted(s ...string) []string {
	out := append([]string{}, s...)
	sort.Strings(out)
	return out
}

func sameIDs(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	want = sorted(want...)
	if len(got) != len(want) {
		t.Fatalf("%s: got %v, want %v", what, got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: got %v, want %v", what, got, want)
		}
	}
}
