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

// Seed document 2, projects.get_hyperparam_values: "allow_public (boolean,
// default true; false restricts to company tasks)".
func TestSeedHyperparamValuesAllowPublic(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		hp := func(v string) map[string]any {
			return map[string]any{"Args": map[string]any{"lr": map[string]any{"section": "Args", "name": "lr", "value": v}}}
		}
		e.Call(t, "tasks.create", map[string]any{"name": "own", "type": "training", "hyperparams": hp("1")}).OK(t)
		pub := e.Call(t, "tasks.create", map[string]any{"name": "public", "type": "training", "hyperparams": hp("2")}).OK(t).Str("id")
		e.Call(t, "tasks.make_public", map[string]any{"ids": []string{pub}}).OK(t)
		body := map[string]any{"section": "Args", "name": "lr"}
		if r := e.Call(t, "projects.get_hyperparam_values", body).OK(t); asJSON(r.List("values")) != `["1","2"]` {
			t.Fatalf("default includes public tasks: %s", r.Raw)
		}
		body["allow_public"] = false
		if r := e.Call(t, "projects.get_hyperparam_values", body).OK(t); asJSON(r.List("values")) != `["1"]` {
			t.Fatalf("allow_public false: %s", r.Raw)
		}
	})
}

// Seed document 2, projects.get_task_parents: "tasks_state (enum active,
// archived; default active; null means all states)".
func TestSeedTaskParentsTasksState(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		p := create(t, e, map[string]any{"name": "states seed"})
		mk := func(body map[string]any) string {
			body["type"] = "training"
			return e.Call(t, "tasks.create", body).OK(t).Str("id")
		}
		pa := mk(map[string]any{"name": "parent of archived"})
		pb := mk(map[string]any{"name": "parent of active"})
		mk(map[string]any{"name": "archived child", "project": p, "parent": pa, "system_tags": []string{"archived"}})
		mk(map[string]any{"name": "active child", "project": p, "parent": pb})
		parents := func(state any, set bool) []string {
			body := map[string]any{"projects": []string{p}}
			if set {
				body["tasks_state"] = state
			}
			out := []string{}
			for _, x := range e.Call(t, "projects.get_task_parents", body).OK(t).List("parents") {
				out = append(out, x.(map[string]any)["id"].(string))
			}
			return out
		}
		if got := parents(nil, false); asJSON(got) != asJSON([]string{pb}) {
			t.Fatalf("default active: %v", got)
		}
		if got := parents("archived", true); asJSON(got) != asJSON([]string{pa}) {
			t.Fatalf("archived: %v", got)
		}
		if got := parents(nil, true); asJSON(got) != asJSON([]string{pb, pa}) {
			t.Fatalf("null means all states (sorted by name): %v", got)
		}
	})
}

// Seed document 2, projects.delete: "force (boolean, default false; without
// it fails when the project has tasks; with it the tasks are unassigned),
// delete_contents (boolean, default false; true deletes the project tasks
// and models, otherwise their project property is unassigned) | deleted
// (integer, 0 or 1), deleted_models, deleted_tasks, disassociated_tasks
// (integers), urls (projects.urls, returned when delete_contents is true)".
func TestSeedProjectDeleteContents(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		task := func(p string) string {
			return e.Call(t, "tasks.create", map[string]any{"name": "in project", "type": "training", "project": p}).OK(t).Str("id")
		}
		kept := create(t, e, map[string]any{"name": "unassign me"})
		orphan := task(kept)
		if r := e.Call(t, "projects.delete", map[string]any{"project": kept}); r.Status != 400 {
			t.Fatalf("a project with tasks needs force: %s", r.Raw)
		}
		r := e.Call(t, "projects.delete", map[string]any{"project": kept, "force": true}).OK(t)
		if r.Num("deleted") != 1 || r.Num("disassociated_tasks") != 1 || r.Num("deleted_tasks") != 0 {
			t.Fatalf("force: %s", r.Raw)
		}
		if _, urls := r.Data["urls"]; urls {
			t.Fatalf("urls only with delete_contents: %s", r.Raw)
		}
		if p := e.Call(t, "tasks.get_by_id", map[string]any{"task": orphan}).OK(t).Str("task.project"); p != "" {
			t.Fatalf("the task keeps project %q", p)
		}

		gone := create(t, e, map[string]any{"name": "delete contents"})
		victim := task(gone)
		e.Call(t, "models.create", map[string]any{"name": "model in project", "uri": "file:///m", "project": gone}).OK(t)
		r = e.Call(t, "projects.delete", map[string]any{"project": gone, "force": true, "delete_contents": true}).OK(t)
		if r.Num("deleted") != 1 || r.Num("deleted_tasks") != 1 || r.Num("deleted_models") != 1 || r.Num("disassociated_tasks") != 0 {
			t.Fatalf("delete_contents: %s", r.Raw)
		}
		if _, ok := r.Data["urls"].(map[string]any); !ok {
			t.Fatalf("urls with delete_contents: %s", r.Raw)
		}
		e.Call(t, "tasks.get_by_id", map[string]any{"task": victim}).Err(t, 400, 101)
	})
}

// Seed document 2, projects.get_hyper_parameters: "include_subprojects
// (boolean, default true)".
func TestSeedHyperParametersIncludeSubprojects(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		top := create(t, e, map[string]any{"name": "hp top"})
		sub := create(t, e, map[string]any{"name": "hp top/sub"})
		for p, name := range map[string]string{top: "top_param", sub: "sub_param"} {
			e.Call(t, "tasks.create", map[string]any{"name": "hp task", "type": "training", "project": p,
				"hyperparams": map[string]any{"Args": map[string]any{name: map[string]any{"section": "Args", "name": name, "value": "1"}}}}).OK(t)
		}
		r := e.Call(t, "projects.get_hyper_parameters", map[string]any{"project": top}).OK(t)
		if asJSON(r.List("parameters")) != `[{"name":"sub_param","section":"Args"},{"name":"top_param","section":"Args"}]` {
			t.Fatalf("default includes subprojects: %s", r.Raw)
		}
		r = e.Call(t, "projects.get_hyper_parameters", map[string]any{"project": top, "include_subprojects": false}).OK(t)
		if asJSON(r.List("parameters")) != `[{"name":"top_param","section":"Args"}]` {
			t.Fatalf("include_subprojects false: %s", r.Raw)
		}
	})
}
