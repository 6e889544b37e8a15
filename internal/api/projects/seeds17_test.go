package projects_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// Seed document 2, projects.get_task_parents: "parents (array of {id:
// string, name: string, project: object}) sorted by name" — project is an
// object also when the parent task has no project.
func TestSeedTaskParentsCarryProject(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		p := create(t, e, map[string]any{"name": "parents seed"})
		loose := e.Call(t, "tasks.create", map[string]any{"name": "b parent without project", "type": "training"}).OK(t).Str("id")
		owned := e.Call(t, "tasks.create", map[string]any{"name": "a parent in project", "type": "training", "project": p}).OK(t).Str("id")
		for _, parent := range []string{loose, owned} {
			e.Call(t, "tasks.create", map[string]any{"name": "child", "type": "training", "project": p, "parent": parent}).OK(t)
		}
		r := e.Call(t, "projects.get_task_parents", map[string]any{"projects": []string{p}}).OK(t)
		want := []map[string]any{
			{"id": owned, "name": "a parent in project", "project": map[string]any{"id": p, "name": "parents seed"}},
			{"id": loose, "name": "b parent without project", "project": map[string]any{}},
		}
		if asJSON(r.List("parents")) != asJSON(want) {
			t.Fatalf("parents: %s", r.Raw)
		}
	})
}

// Seed document 2, projects.get_all_ex: "non_public (boolean, default
// false; only non-public projects)".
func TestSeedProjectsNonPublic(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		mine := create(t, e, map[string]any{"name": "private one"})
		shared := create(t, e, map[string]any{"name": "public one"})
		e.Call(t, "projects.make_public", map[string]any{"ids": []string{shared}}).OK(t)
		ids := func(r *testenv.Response) map[string]bool {
			out := map[string]bool{}
			for _, p := range r.List("projects") {
				out[p.(map[string]any)["id"].(string)] = true
			}
			return out
		}
		all := ids(e.Call(t, "projects.get_all_ex", map[string]any{"id": []string{mine, shared}}).OK(t))
		if !all[mine] || !all[shared] {
			t.Fatalf("default lists both: %v", all)
		}
		own := ids(e.Call(t, "projects.get_all_ex", map[string]any{"id": []string{mine, shared}, "non_public": true}).OK(t))
		if !own[mine] || own[shared] {
			t.Fatalf("non_public lists only the private one: %v", own)
		}
	})
}
