package tasks_test

import (
	"slices"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// TestNullFieldAsksNothing covers a list-query field set to null: it
// filters nothing, as in the reference. The web app's dashboard asks its
// RECENT TASKS with "user": null (every app version since 2.0); before,
// Trove read it as "tasks without a user" and the table stayed empty.
func TestNullFieldAsksNothing(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		p := mkProject(t, e, "null filters")
		done := mkTask(t, e, "done", obj{"project": p, "tags": []string{"x"}})
		e.Call(t, "tasks.started", obj{"task": done}).OK(t)
		e.Call(t, "tasks.completed", obj{"task": done}).OK(t)
		draft := mkTask(t, e, "draft", obj{"project": p})

		// The dashboard's body, as clearml-web 2.0 to 2.5 send it.
		dashboard := obj{"page": 0, "page_size": 5, "order_by": []string{"-last_update"},
			"status":      []string{"published", "closed", "failed", "stopped", "in_progress", "completed"},
			"type":        []string{"__$not", "annotation_manual", "__$not", "annotation", "__$not", "dataset_import"},
			"only_fields": []string{"type", "status", "created", "name", "id", "last_update", "started", "project.name"},
			"system_tags": []string{"-archived", "-pipeline"}, "user": nil}
		for _, c := range []struct {
			name string
			op   string
			body obj
			want []string
		}{
			{"dashboard recent tasks", "tasks.get_all_ex", dashboard, []string{done}},
			{"null user", "tasks.get_all", obj{"project": []string{p}, "user": nil}, []string{done, draft}},
			{"null tags and status", "tasks.get_all_ex", obj{"project": []string{p}, "tags": nil, "status": nil}, []string{done, draft}},
			{"null range and date", "tasks.get_all_ex", obj{"project": []string{p}, "last_iteration": nil, "last_update": nil}, []string{done, draft}},
			{"null in a list is still empty", "tasks.get_all_ex", obj{"project": []string{p}, "tags": []any{nil}}, []string{draft}},
		} {
			t.Run(c.name, func(t *testing.T) {
				got := ids(e.Call(t, c.op, c.body).OK(t))
				slices.Sort(got)
				want := slices.Clone(c.want)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Fatalf("want %v, got %v", want, got)
				}
			})
		}
	})
}
