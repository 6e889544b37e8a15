package projects_test

import (
	"reflect"
	"sort"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// Found by trove-bench hostile: organization.get_tags,
// projects.get_task_tags, projects.get_task_parents and tasks.get_types
// read every task of the company, seconds each on a 100,000-task store.
// They read the facets triggers keep on every task and model write now;
// the answers follow edits, archiving, deletes and merges.
func TestHostileFacetReadsFollowWrites(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		p := create(t, e, map[string]any{"name": "facets"})
		child := create(t, e, map[string]any{"name": "facets/child"})
		other := create(t, e, map[string]any{"name": "facets other"})
		mk := func(name, typ, project string, tags []string, parent string) string {
			body := map[string]any{"name": name, "type": typ, "project": project, "tags": tags}
			if parent != "" {
				body["parent"] = parent
			}
			return e.Call(t, "tasks.create", body).OK(t).Str("id")
		}
		root := mk("root", "controller", p, []string{"a"}, "")
		step := mk("step", "testing", child, []string{"b"}, root)
		old := mk("old", "inference", p, []string{"c"}, root)
		e.Call(t, "tasks.archive", map[string]any{"tasks": []string{old}}).OK(t)
		e.Call(t, "models.create", map[string]any{"name": "facet model", "uri": "file:///m", "project": p, "tags": []string{"model-tag"}}).OK(t)

		strs := func(r *testenv.Response, key string) []string {
			out := []string{}
			for _, v := range r.List(key) {
				out = append(out, v.(string))
			}
			sort.Strings(out)
			return out
		}
		parents := func(state string) []string {
			r := e.Call(t, "projects.get_task_parents", map[string]any{"projects": []string{p}, "tasks_state": state}).OK(t)
			out := []string{}
			for _, it := range r.List("parents") {
				out = append(out, it.(map[string]any)["id"].(string))
			}
			return out
		}
		check := func(what string, got, want []string) {
			t.Helper()
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: got %v, want %v", what, got, want)
			}
		}
		check("types of p", strs(e.Call(t, "tasks.get_types", map[string]any{"projects": []string{p}}).OK(t), "types"), []string{"controller", "inference"})
		check("types", strs(e.Call(t, "tasks.get_types", map[string]any{}).OK(t), "types"), []string{"controller", "inference", "testing"})
		check("task tags of p and its child", strs(e.Call(t, "projects.get_task_tags", map[string]any{"projects": []string{p}}).OK(t), "tags"), []string{"a", "b", "c"})
		org := e.Call(t, "organization.get_tags", map[string]any{"include_system": true}).OK(t)
		check("organization tags", strs(org, "tags"), []string{"a", "b", "c", "model-tag"})
		check("organization system tags", strs(org, "system_tags"), []string{"archived"})
		check("active parents", parents("active"), []string{root})
		check("archived parents", parents("archived"), []string{root})

		// Edits move the facets: a new tag and type, a restored task, a
		// deleted one, a task moved out.
		e.Call(t, "tasks.edit", map[string]any{"task": step, "tags": []string{"d"}, "type": "training"}).OK(t)
		e.Call(t, "tasks.unarchive_many", map[string]any{"ids": []string{old}}).OK(t)
		check("archived parents after the restore", parents("archived"), []string{})
		e.Call(t, "tasks.delete", map[string]any{"task": old}).OK(t)
		check("task tags after the edits", strs(e.Call(t, "projects.get_task_tags", map[string]any{"projects": []string{p}}).OK(t), "tags"), []string{"a", "d"})
		check("types after the edits", strs(e.Call(t, "tasks.get_types", map[string]any{"projects": []string{p}}).OK(t), "types"), []string{"controller"})
		org = e.Call(t, "organization.get_tags", map[string]any{"include_system": true}).OK(t)
		check("system tags after the delete", strs(org, "system_tags"), []string{})

		// A merge moves the child's tasks and their facets.
		e.Call(t, "projects.merge", map[string]any{"project": child, "destination_project": other}).OK(t)
		check("tags of the merge's destination", strs(e.Call(t, "projects.get_task_tags", map[string]any{"projects": []string{other}}).OK(t), "tags"), []string{"d"})
		check("parents of the merge's destination", func() []string {
			r := e.Call(t, "projects.get_task_parents", map[string]any{"projects": []string{other}}).OK(t)
			out := []string{}
			for _, it := range r.List("parents") {
				out = append(out, it.(map[string]any)["id"].(string))
			}
			return out
		}(), []string{root})
	})
}
