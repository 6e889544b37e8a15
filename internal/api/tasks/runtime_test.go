package tasks_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

// TestEditRuntime covers tasks.edit_runtime (2.34): adding, replacing and
// removing runtime properties, the status lock (force opens queued and
// in_progress tasks, never finished ones), the 2.34 minimum version and bad
// input named by field.
func TestEditRuntime(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		id := mkTask(t, e, "runtime task", obj{"runtime": obj{"gpu": "0", "keep": "yes"}})
		r := e.Call(t, "tasks.edit_runtime", obj{"task": id, "add_or_update": obj{"gpu": "1", "node": "a"}, "remove": []string{"keep", "absent"}}).OK(t)
		if r.Num("updated") != 1 {
			t.Fatalf("updated = %v", r.Data)
		}
		rt, _ := getTask(t, e, id)["runtime"].(map[string]any)
		if len(rt) != 2 || rt["gpu"] != "1" || rt["node"] != "a" {
			t.Fatalf("runtime = %v", rt)
		}
		// Nothing to change: updated 0 and the task untouched.
		if r := e.Call(t, "tasks.edit_runtime", obj{"task": id}).OK(t); r.Num("updated") != 0 {
			t.Fatalf("empty edit: %v", r.Data)
		}

		cases := []struct {
			name   string
			status string
			force  bool
			ok     bool
		}{
			{"queued without force", "queued", false, false},
			{"queued with force", "queued", true, true},
			{"in_progress without force", "in_progress", false, false},
			{"in_progress with force", "in_progress", true, true},
			{"completed with force", "completed", true, false},
			{"published with force", "published", true, false},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				tid := mkTask(t, e, "runtime "+c.name, nil)
				patchTask(t, e, tid, func(tk *store.Task) { tk.Status = c.status })
				r := e.Call(t, "tasks.edit_runtime", obj{"task": tid, "add_or_update": obj{"k": "v"}, "force": c.force})
				if !c.ok {
					r.Err(t, 400, 110)
					if rt, _ := getTask(t, e, tid)["runtime"].(map[string]any); rt["k"] != nil {
						t.Fatalf("refused edit wrote runtime: %v", rt)
					}
					return
				}
				r.OK(t)
				if rt, _ := getTask(t, e, tid)["runtime"].(map[string]any); rt["k"] != "v" {
					t.Fatalf("runtime = %v", rt)
				}
			})
		}

		bad := []struct {
			name string
			body obj
			code int
			sub  int
		}{
			{"no task", obj{"add_or_update": obj{"a": "b"}}, 400, 12},
			{"unknown task", obj{"task": "nope", "add_or_update": obj{"a": "b"}}, 400, 101},
			{"empty key", obj{"task": id, "add_or_update": obj{"": "b"}}, 400, 12},
			{"empty key to remove", obj{"task": id, "remove": []string{""}}, 400, 12},
			{"value not a string", obj{"task": id, "add_or_update": obj{"a": 1}}, 400, 12},
		}
		for _, b := range bad {
			t.Run(b.name, func(t *testing.T) {
				e.Call(t, "tasks.edit_runtime", b.body).Err(t, b.code, b.sub)
			})
		}
		// Older clients do not see the operation.
		e.Call(t, "v2.33/tasks.edit_runtime", obj{"task": id, "add_or_update": obj{"a": "b"}}).Err(t, 404, 0)
	})
}
