package queues_test

import (
	"sort"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

func queueNames(r *testenv.Response) []string {
	var out []string
	for _, it := range r.List("queues") {
		out = append(out, it.(map[string]any)["name"].(string))
	}
	sort.Strings(out)
	return out
}

func TestGetAll(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		a := newQueue(t, e, "alpha-1", map[string]any{"tags": []string{"gpu"}})
		b := newQueue(t, e, "alpha.2", map[string]any{"tags": []string{"cpu"}, "metadata": []map[string]any{{"key": "zone", "type": "str", "value": "eu"}}})
		glue := newQueue(t, e, "k8s queue", map[string]any{"system_tags": []string{"k8s-glue"}})
		tk := newTasks(t, e, 3)
		for _, id := range tk {
			e.Call(t, "queues.add_task", map[string]any{"queue": a, "task": id}).OK(t)
		}
		cases := []struct {
			name  string
			op    string
			body  map[string]any
			names []string
			check func(t *testing.T, r *testenv.Response)
		}{
			{name: "all but hidden", op: "queues.get_all", body: map[string]any{}, names: []string{"alpha-1", "alpha.2", "default"}},
			{name: "search hidden", op: "queues.get_all", body: map[string]any{"search_hidden": true}, names: []string{"alpha-1", "alpha.2", "default", "k8s queue"}},
			{name: "hidden by id", op: "queues.get_all", body: map[string]any{"id": []string{glue}}, names: []string{"k8s queue"}},
			{name: "hidden by name", op: "queues.get_all", body: map[string]any{"name": "k8s"}, names: []string{"k8s queue"}},
			{name: "escaped anchored name (SDK)", op: "queues.get_all", body: map[string]any{"name": `^alpha\.2$`, "only_fields": []string{"id"}},
				check: func(t *testing.T, r *testenv.Response) {
					if l := r.List("queues"); len(l) != 1 || r.Str("queues.0.id") != b {
						t.Fatalf("want only alpha.2: %s", r.Raw)
					}
				}},
			{name: "agent poll keeps tags", op: "queues.get_all", body: map[string]any{"id": []string{a, b}, "only_fields": []string{"id", "tags"}},
				check: func(t *testing.T, r *testenv.Response) {
					for _, it := range r.List("queues") {
						m := it.(map[string]any)
						if _, ok := m["tags"].([]any); !ok || m["id"] == nil || m["entries"] != nil || len(m) != 2 {
							t.Fatalf("want exactly id and a tags list: %s", r.Raw)
						}
					}
				}},
			{name: "tags filter", op: "queues.get_all", body: map[string]any{"tags": []string{"gpu"}}, names: []string{"alpha-1"}},
			{name: "tags exclusion", op: "queues.get_all", body: map[string]any{"tags": []string{"-gpu"}}, names: []string{"alpha.2", "default"}},
			{name: "metadata filter", op: "queues.get_all", body: map[string]any{"metadata.zone": "eu"}, names: []string{"alpha.2"}},
			{name: "ordered with entries", op: "queues.get_all", body: map[string]any{"order_by": []string{"-name"}, "max_task_entries": 2},
				check: func(t *testing.T, r *testenv.Response) {
					if r.Str("queues.0.name") != "default" || r.Str("queues.2.name") != "alpha-1" {
						t.Fatalf("order: %s", r.Raw)
					}
					if got := r.List("queues.2.entries"); len(got) != 2 || r.Str("queues.2.entries.0.task") != tk[0] {
						t.Fatalf("max_task_entries: %s", r.Raw)
					}
				}},
			{name: "paging", op: "queues.get_all", body: map[string]any{"order_by": []string{"name"}, "page": 1, "page_size": 2}, names: []string{"default"}},
			{name: "ex filters", op: "queues.get_all_ex", body: map[string]any{"filters": map[string]any{"tags": map[string]any{"any": map[string]any{"include": []string{"gpu", "cpu"}}}}},
				names: []string{"alpha-1", "alpha.2"}},
			{name: "ex shape", op: "queues.get_all_ex", body: map[string]any{"id": []string{a}},
				check: func(t *testing.T, r *testenv.Response) {
					if r.Str("queues.0.company.id") == "" || r.Str("queues.0.entries.0.task.id") != tk[0] ||
						r.Str("queues.0.entries.0.task.name") != "task-0" || r.List("queues.0.workers") == nil {
						t.Fatalf("ex shape: %s", r.Raw)
					}
				}},
			{name: "ex projection", op: "queues.get_all_ex", body: map[string]any{"id": []string{a}, "only_fields": []string{"name"}},
				check: func(t *testing.T, r *testenv.Response) {
					m := r.List("queues")[0].(map[string]any)
					if m["name"] != "alpha-1" || m["entries"] != nil || m["workers"] != nil {
						t.Fatalf("ex projection: %s", r.Raw)
					}
				}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				r := e.Call(t, tc.op, tc.body).OK(t)
				if tc.names != nil && !sameList(queueNames(r), tc.names...) {
					t.Fatalf("want %v, got %v", tc.names, queueNames(r))
				}
				if tc.check != nil {
					tc.check(t, r)
				}
			})
		}
		// Scroll through the queues two at a time.
		var seen []string
		scroll := any(nil)
		for i := 0; i < 5; i++ {
			r := e.Call(t, "queues.get_all", map[string]any{"scroll_id": scroll, "size": 2, "only_fields": []string{"name"}, "search_hidden": true}).OK(t)
			if len(r.List("queues")) == 0 {
				break
			}
			seen = append(seen, queueNames(r)...)
			scroll = r.Str("scroll_id")
		}
		if len(seen) != 4 {
			t.Fatalf("scroll saw %v", seen)
		}
		// Bad input.
		for _, body := range []map[string]any{{"only_fields": []string{"nope"}}, {"max_task_entries": -2}, {"name": "("}, {"tags": map[string]any{"a": 1}}} {
			if r := e.Call(t, "queues.get_all", body); r.Status != 400 {
				t.Fatalf("%v: want 400, got %s", body, r.Raw)
			}
		}
	})
}

func TestMetadata(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		q := newQueue(t, e, "meta")
		meta := func() map[string]any {
			m, _ := testenv.Get(e.Call(t, "queues.get_by_id", map[string]any{"queue": q}).OK(t).Data, "queue.metadata").(map[string]any)
			return m
		}
		e.Call(t, "queues.add_or_update_metadata", map[string]any{"queue": q, "metadata": []map[string]any{
			{"key": "a", "type": "str", "value": "1"}, {"key": "b", "type": "int", "value": "2"}}}).OK(t)
		r := e.Call(t, "queues.add_or_update_metadata", map[string]any{"queue": q, "metadata": map[string]any{
			"b": map[string]any{"key": "b", "type": "int", "value": "3"}}}).OK(t)
		if r.Num("updated") != 1 {
			t.Fatalf("answer %s", r.Raw)
		}
		if m := meta(); len(m) != 2 || testenv.Get(m, "b.value") != "3" || testenv.Get(m, "a.type") != "str" {
			t.Fatalf("merged metadata %v", m)
		}
		e.Call(t, "queues.add_or_update_metadata", map[string]any{"queue": q, "replace_metadata": true,
			"metadata": []map[string]any{{"key": "c", "type": "str", "value": ""}}}).OK(t)
		if m := meta(); len(m) != 1 || m["c"] == nil {
			t.Fatalf("replaced metadata %v", m)
		}
		if r := e.Call(t, "queues.delete_metadata", map[string]any{"queue": q, "keys": []string{"c", "zz"}}).OK(t); r.Num("updated") != 1 {
			t.Fatalf("delete answer %s", r.Raw)
		}
		if r := e.Call(t, "queues.delete_metadata", map[string]any{"queue": q, "keys": []string{"c"}}).OK(t); r.Num("updated") != 0 {
			t.Fatalf("deleting nothing %s", r.Raw)
		}
		if m := meta(); len(m) != 0 {
			t.Fatalf("metadata left %v", m)
		}
		for _, tc := range []struct {
			op   string
			body map[string]any
			sub  int
		}{
			{"queues.add_or_update_metadata", map[string]any{"queue": q}, 12},
			{"queues.add_or_update_metadata", map[string]any{"queue": q, "metadata": []any{}}, 12},
			{"queues.add_or_update_metadata", map[string]any{"queue": q, "metadata": []any{map[string]any{"type": "x", "value": "y"}}}, 12},
			{"queues.add_or_update_metadata", map[string]any{"queue": q, "metadata": []any{map[string]any{"key": "k", "type": 1, "value": "y"}}}, 12},
			{"queues.add_or_update_metadata", map[string]any{"queue": "nope", "metadata": []any{map[string]any{"key": "k", "type": "t", "value": "v"}}}, 701},
			{"queues.delete_metadata", map[string]any{"queue": q, "keys": []string{}}, 12},
			{"queues.delete_metadata", map[string]any{"queue": q}, 12},
			{"queues.delete_metadata", map[string]any{"queue": "nope", "keys": []string{"a"}}, 701},
		} {
			e.Call(t, tc.op, tc.body).Err(t, 400, tc.sub)
		}
	})
}
