package tasks_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/testenv"
)

func ids(r *testenv.Response) []string {
	out := []string{}
	for _, it := range r.List("tasks") {
		out = append(out, it.(map[string]any)["id"].(string))
	}
	return out
}

func names(r *testenv.Response) []string {
	out := []string{}
	for _, it := range r.List("tasks") {
		n, _ := it.(map[string]any)["name"].(string)
		out = append(out, n)
	}
	return out
}

// TestListQueries covers the TasksQuery fields, ordering and *_ex shaping.
func TestListQueries(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		p1 := mkProject(t, e, "list p1")
		sub := mkProject(t, e, "list p1/sub")
		p2 := mkProject(t, e, "list p2")
		hp := func(v string) obj {
			return obj{"Args": obj{"lr": obj{"section": "Args", "name": "lr", "value": v}}}
		}
		a := mkTask(t, e, "alpha one", obj{"project": p1, "tags": []string{"a", "b"}, "hyperparams": hp("10")})
		b := mkTask(t, e, "beta two", obj{"project": sub, "type": "testing", "tags": []string{"a"}, "hyperparams": hp("9")})
		c := mkTask(t, e, "gamma three", obj{"project": p2, "tags": []string{"c"}, "hyperparams": hp("2"), "parent": a})
		hidden := mkTask(t, e, "hidden four", obj{"project": p2, "system_tags": []string{"hidden"}})
		e.Call(t, "tasks.started", obj{"task": b}).OK(t)
		before := time.Now().Add(-time.Hour).UTC()
		cases := []struct {
			name string
			op   string
			body obj
			want []string
		}{
			{"project", "tasks.get_all", obj{"project": []string{p1}}, []string{a}},
			{"project with subprojects", "tasks.get_all_ex", obj{"project": []string{p1}, "include_subprojects": true, "order_by": []string{"name"}}, []string{a, b}},
			{"no project", "tasks.get_all", obj{"project": []any{nil}, "name": "^(alpha|beta|gamma)"}, []string{}},
			{"type case-insensitive", "tasks.get_all", obj{"type": []string{"TESTING"}}, []string{b}},
			{"unknown types excluded", "tasks.get_all_ex", obj{"type": []string{"__$not", "annotation_manual", "__$not", "dataset_import"}, "project": []string{p1, sub, p2}, "order_by": []string{"name"}}, []string{a, b, c}},
			{"unknown type included matches nothing", "tasks.get_all_ex", obj{"type": []string{"cooking"}}, []string{}},
			{"started ascending, never started last", "tasks.get_all_ex", obj{"order_by": []string{"started", "name"}, "project": []string{p1, sub, p2}}, []string{b, a, c}},
			{"started descending, never started last", "tasks.get_all_ex", obj{"order_by": []string{"-started", "name"}, "project": []string{p1, sub, p2}}, []string{b, a, c}},
			{"status", "tasks.get_all", obj{"status": []string{"in_progress"}}, []string{b}},
			{"tags any and exclude", "tasks.get_all", obj{"tags": []string{"a", "-b"}}, []string{b}},
			{"tags all", "tasks.get_all", obj{"tags": []string{"__$all", "a", "b"}}, []string{a}},
			{"parent", "tasks.get_all", obj{"parent": a}, []string{c}},
			{"hyper parameter value", "tasks.get_all", obj{"hyperparams.Args.lr": []string{"9"}}, []string{b}},
			{"name regex", "tasks.get_all", obj{"name": "^gam"}, []string{c}},
			{"numeric order of hyper parameters", "tasks.get_all", obj{"order_by": []string{"hyperparams.Args.lr"}, "project": []string{p1, sub, p2}}, []string{c, b, a}},
			{"numeric order descending", "tasks.get_all", obj{"order_by": []string{"-hyperparams.Args.lr.value"}, "project": []string{p1, sub, p2}}, []string{a, b, c}},
			{"legacy parameter order", "tasks.get_all", obj{"order_by": []string{"execution.parameters.lr"}, "project": []string{p1, sub, p2}}, []string{c, b, a}},
			{"status_changed after date", "tasks.get_all", obj{"status_changed": []string{">" + before.Format(time.RFC3339)}}, []string{b}},
			{"status_changed after epoch", "tasks.get_all", obj{"status_changed": []string{fmt.Sprintf(">=%d", before.Unix())}}, []string{b}},
			{"status_changed before date", "tasks.get_all", obj{"status_changed": []string{"<" + before.Format(time.RFC3339)}}, []string{}},
			{"hidden excluded", "tasks.get_all", obj{"project": []string{p2}}, []string{c}},
			{"hidden on request", "tasks.get_all", obj{"project": []string{p2}, "search_hidden": true, "order_by": []string{"name"}}, []string{c, hidden}},
			{"hidden by id", "tasks.get_all", obj{"id": []string{hidden}}, []string{hidden}},
			{"user", "tasks.get_all", obj{"user": []string{"nobody"}}, []string{}},
			{"filters any include", "tasks.get_all_ex", obj{"filters": obj{"tags": obj{"any": obj{"include": []string{"c", "b"}}}}, "order_by": []string{"name"}}, []string{a, c}},
			{"page size", "tasks.get_all", obj{"project": []string{p1, sub, p2}, "order_by": []string{"name"}, "page": 1, "page_size": 2}, []string{c}},
			{"by id ex", "tasks.get_by_id_ex", obj{"id": []string{a}}, []string{a}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				r := e.Call(t, tc.op, tc.body).OK(t)
				if got := ids(r); mustJSON(got) != mustJSON(tc.want) {
					t.Fatalf("got %v (%v), want %v", got, names(r), tc.want)
				}
			})
		}

		t.Run("ex references", func(t *testing.T) {
			r := e.Call(t, "tasks.get_all_ex", obj{"id": []string{c}, "only_fields": []string{"name", "project.name", "parent.name"}}).OK(t)
			it := r.List("tasks")[0].(map[string]any)
			if mustJSON(it["project"]) != mustJSON(obj{"id": p2, "name": "list p2"}) || mustJSON(it["parent"]) != mustJSON(obj{"id": a, "name": "alpha one"}) {
				t.Fatalf("references: %s", r.Raw)
			}
			plain := e.Call(t, "tasks.get_all", obj{"id": []string{c}, "only_fields": []string{"project"}}).OK(t)
			if plain.List("tasks")[0].(map[string]any)["project"] != p2 {
				t.Fatalf("get_all must return plain ids: %s", plain.Raw)
			}
		})
		t.Run("projection", func(t *testing.T) {
			r := e.Call(t, "tasks.get_all", obj{"id": []string{a}, "only_fields": []string{"status", "hyperparams.Args"}}).OK(t)
			it := r.List("tasks")[0].(map[string]any)
			if it["status"] != "created" || it["name"] != nil || testenv.Get(it, "hyperparams.Args.lr.value") != "10" {
				t.Fatalf("projection: %s", r.Raw)
			}
		})
		t.Run("scroll", func(t *testing.T) {
			r := e.Call(t, "tasks.get_all", obj{"project": []string{p1, sub, p2}, "order_by": []string{"name"}, "scroll_id": nil, "size": 2}).OK(t)
			sid := r.Str("scroll_id")
			r2 := e.Call(t, "tasks.get_all", obj{"project": []string{p1, sub, p2}, "order_by": []string{"name"}, "scroll_id": sid, "size": 2}).OK(t)
			if mustJSON(append(ids(r), ids(r2)...)) != mustJSON([]string{a, b, c}) {
				t.Fatalf("scroll pages %v %v", ids(r), ids(r2))
			}
		})
		t.Run("public tasks are read", func(t *testing.T) {
			e.Call(t, "tasks.make_public", obj{"ids": []string{a}}).OK(t)
			if got := getTask(t, e, a)["company"]; got != "" {
				t.Fatalf("public task company %v", got)
			}
			r := e.Call(t, "tasks.get_all_ex", obj{"id": []string{a}, "allow_public": false}).OK(t)
			if len(ids(r)) != 0 {
				t.Fatal("allow_public false still returned the public task")
			}
			e.Call(t, "tasks.edit", obj{"task": a, "comment": "x"}).Err(t, 403, 21)
			e.Call(t, "tasks.make_private", obj{"ids": []string{a}}).OK(t)
			e.Call(t, "tasks.make_private", obj{"ids": []string{a}}).Err(t, 400, 101)
		})
		t.Run("types", func(t *testing.T) {
			r := e.Call(t, "tasks.get_types", obj{"projects": []string{p1, sub}}).OK(t)
			if mustJSON(r.List("types")) != `["testing","training"]` {
				t.Fatalf("types %s", r.Raw)
			}
		})
	})
}
