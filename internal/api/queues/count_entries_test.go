package queues_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// TestCountTaskEntries covers count_task_entries on queues.get_all(_ex)
// (the IN QUEUE column of clearml-web 2.4's queues page, which asks one
// entry per queue and the count): entries_count is every entry of each
// queue, 0 for an empty one, whatever max_task_entries keeps; absent
// without the flag; a non-boolean flag is refused.
func TestCountTaskEntries(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		busy, empty := newQueue(t, e, "busy"), newQueue(t, e, "idle")
		for _, id := range newTasks(t, e, 3) {
			e.Call(t, "queues.add_task", map[string]any{"queue": busy, "task": id}).OK(t)
		}
		byID := func(r *testenv.Response) map[string]map[string]any {
			out := map[string]map[string]any{}
			for _, it := range r.List("queues") {
				m := it.(map[string]any)
				out[m["id"].(string)] = m
			}
			return out
		}
		for _, op := range []string{"queues.get_all_ex", "queues.get_all"} {
			t.Run(op, func(t *testing.T) {
				// As the app asks it.
				r := e.Call(t, op, map[string]any{"id": []string{busy, empty}, "count_task_entries": true, "max_task_entries": 1,
					"only_fields": []string{"display_name", "last_update", "name", "tags", "workers", "entries"}}).OK(t)
				q := byID(r)
				if q[busy]["entries_count"] != 3.0 || len(q[busy]["entries"].([]any)) != 1 || q[empty]["entries_count"] != 0.0 {
					t.Fatalf("counts: %s", r.Raw)
				}
				plain := byID(e.Call(t, op, map[string]any{"id": []string{busy}}).OK(t))
				if _, ok := plain[busy]["entries_count"]; ok {
					t.Fatalf("entries_count without the flag: %v", plain[busy])
				}
			})
		}
		e.Call(t, "queues.get_all_ex", map[string]any{"count_task_entries": "yes"}).Err(t, 400, 12)
	})
}
