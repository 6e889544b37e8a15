package queues_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// TestGetByTaskID covers queues.get_by_task_id (the web app's Dequeue
// dialog, clearml-web 2.5): the queue a task waits in with its display
// name; the execution queue first when the task waits in several; {} for
// a task that waits nowhere (never queued, handed out, dequeued); bad
// input named; 2.34 and later only.
func TestGetByTaskID(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		gpu := newQueue(t, e, "gpu", map[string]any{"display_name": "GPU pool"})
		cpu := newQueue(t, e, "cpu")
		waiting, twice, draft, handed := newTask(t, e, "waiting"), newTask(t, e, "twice"), newTask(t, e, "draft"), newTask(t, e, "handed")
		e.Call(t, "tasks.enqueue", map[string]any{"task": waiting, "queue": gpu}).OK(t)
		// In both queues, enqueued into cpu: cpu is its execution queue.
		e.Call(t, "queues.add_task", map[string]any{"queue": gpu, "task": twice}).OK(t)
		e.Call(t, "tasks.enqueue", map[string]any{"task": twice, "queue": cpu}).OK(t)
		agent := newQueue(t, e, "agent")
		e.Call(t, "tasks.enqueue", map[string]any{"task": handed, "queue": agent}).OK(t)
		if r := e.Call(t, "queues.get_next_task", map[string]any{"queue": agent}).OK(t); r.Str("entry.task") != handed {
			t.Fatalf("hand-out: %s", r.Raw)
		}

		for _, c := range []struct {
			name, task string
			want       map[string]any
		}{
			{"queued", waiting, map[string]any{"id": gpu, "name": "gpu", "display_name": "GPU pool"}},
			{"execution queue first", twice, map[string]any{"id": cpu, "name": "cpu"}},
			{"never queued", draft, map[string]any{}},
			{"handed out", handed, map[string]any{}},
		} {
			t.Run(c.name, func(t *testing.T) {
				r := e.Call(t, "queues.get_by_task_id", map[string]any{"task": c.task}).OK(t)
				if len(r.Data) != len(c.want) {
					t.Fatalf("want %v, got %s", c.want, r.Raw)
				}
				for k, v := range c.want {
					if r.Data[k] != v {
						t.Fatalf("%s: want %v, got %s", k, v, r.Raw)
					}
				}
			})
		}

		e.Call(t, "tasks.dequeue", map[string]any{"task": waiting}).OK(t)
		if r := e.Call(t, "queues.get_by_task_id", map[string]any{"task": waiting}).OK(t); len(r.Data) != 0 {
			t.Fatalf("a dequeued task waits nowhere: %s", r.Raw)
		}

		for _, c := range []struct {
			name          string
			body          map[string]any
			code, subcode int
		}{
			{"unknown task", map[string]any{"task": "nope"}, 400, 101},
			{"task missing", map[string]any{}, 400, 12},
			{"task not a string", map[string]any{"task": 5}, 400, 12},
		} {
			t.Run(c.name, func(t *testing.T) {
				e.Call(t, "queues.get_by_task_id", c.body).Err(t, c.code, c.subcode)
			})
		}
		e.Call(t, "v2.33/queues.get_by_task_id", map[string]any{"task": waiting}).Err(t, 404, 0)
	})
}
