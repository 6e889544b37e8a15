package queues_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

func TestEntries(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		q := newQueue(t, e, "work")
		other := newQueue(t, e, "other")
		tk := newTasks(t, e, 3)
		for _, id := range tk {
			if r := e.Call(t, "queues.add_task", map[string]any{"queue": q, "task": id}).OK(t); r.Num("added") != 1 {
				t.Fatalf("bad add answer %s", r.Raw)
			}
		}
		if got := entryTasks(t, e, q); !sameList(got, tk...) {
			t.Fatalf("entries not FIFO: %v", got)
		}
		task := e.Call(t, "tasks.get_by_id", map[string]any{"task": tk[0]}).OK(t)
		if task.Str("task.execution.queue") != q || task.Str("task.status") != "created" {
			t.Fatalf("add_task should set execution.queue and keep the status: %s", task.Raw)
		}
		cases := []struct {
			name    string
			op      string
			body    map[string]any
			code    int
			subcode int
		}{
			{"already queued", "queues.add_task", map[string]any{"queue": q, "task": tk[1]}, 400, 706},
			{"unknown queue", "queues.add_task", map[string]any{"queue": "nope", "task": tk[1]}, 400, 701},
			{"unknown task", "queues.add_task", map[string]any{"queue": q, "task": "nope"}, 400, 101},
			{"missing task", "queues.add_task", map[string]any{"queue": q}, 400, 12},
			{"remove absent", "queues.remove_task", map[string]any{"queue": other, "task": tk[1]}, 400, 703},
			{"remove unknown queue", "queues.remove_task", map[string]any{"queue": "nope", "task": tk[1]}, 400, 701},
			{"next unknown queue", "queues.get_next_task", map[string]any{"queue": "nope"}, 400, 701},
			{"next without queue", "queues.get_next_task", map[string]any{}, 400, 12},
			{"peek unknown", "queues.peek_task", map[string]any{"queue": "nope"}, 400, 701},
			{"num unknown", "queues.get_num_entries", map[string]any{"queue": "nope"}, 400, 701},
			{"by id wrong type", "queues.get_by_id", map[string]any{"queue": q, "max_task_entries": "x"}, 400, 12},
			{"by id negative entries", "queues.get_by_id", map[string]any{"queue": q, "max_task_entries": -1}, 400, 12},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) { e.Call(t, tc.op, tc.body).Err(t, tc.code, tc.subcode) })
		}
		if got := entryTasks(t, e, q); !sameList(got, tk...) {
			t.Fatalf("failed calls changed the queue: %v", got)
		}
		r := e.Call(t, "queues.get_by_id", map[string]any{"queue": q, "max_task_entries": 2}).OK(t)
		if n := len(r.List("queue.entries")); n != 2 || r.Str("queue.entries.0.added") == "" {
			t.Fatalf("max_task_entries: %s", r.Raw)
		}
		if r := e.Call(t, "queues.peek_task", map[string]any{"queue": q}).OK(t); r.Str("task") != tk[0] {
			t.Fatalf("peek: %s", r.Raw)
		}
		if r := e.Call(t, "queues.get_num_entries", map[string]any{"queue": q}).OK(t); r.Num("num") != 3 {
			t.Fatalf("num: %s", r.Raw)
		}
		// get_next_task with a task that is not on top takes nothing.
		if r := e.Call(t, "queues.get_next_task", map[string]any{"queue": q, "task": tk[1]}).OK(t); len(r.Data) != 0 {
			t.Fatalf("task not on top must not be taken: %s", r.Raw)
		}
		r = e.Call(t, "queues.get_next_task", map[string]any{"queue": q, "get_task_info": true}).OK(t)
		if r.Str("entry.task") != tk[0] || r.Str("entry.added") == "" || r.Str("task_info.company") == "" || r.Str("task_info.user") == "" {
			t.Fatalf("next: %s", r.Raw)
		}
		if r := e.Call(t, "queues.remove_task", map[string]any{"queue": q, "task": tk[2]}).OK(t); r.Num("removed") != 1 {
			t.Fatalf("remove: %s", r.Raw)
		}
		r = e.Call(t, "queues.get_next_task", map[string]any{"queue": q, "task": tk[1]}).OK(t)
		if r.Str("entry.task") != tk[1] || r.Data["task_info"] != nil {
			t.Fatalf("next with task: %s", r.Raw)
		}
		if r := e.Call(t, "queues.get_next_task", map[string]any{"queue": q}).OK(t); len(r.Data) != 0 {
			t.Fatalf("empty queue must answer {}: %s", r.Raw)
		}
		r = e.Call(t, "queues.peek_task", map[string]any{"queue": q}).OK(t)
		if v, ok := r.Data["task"]; !ok || v != nil {
			t.Fatalf("peek of an empty queue: %s", r.Raw)
		}
	})
}

func TestClearQueueAndRemoveWithStatus(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		q := newQueue(t, e, "to-clear")
		enqueued := newTask(t, e, "enqueued")
		e.Call(t, "tasks.enqueue", map[string]any{"task": enqueued, "queue": q}).OK(t)
		added := newTask(t, e, "added")
		e.Call(t, "queues.add_task", map[string]any{"queue": q, "task": added, "update_execution_queue": false}).OK(t)
		if got := e.Call(t, "tasks.get_by_id", map[string]any{"task": added}).OK(t).Str("task.execution.queue"); got != "" {
			t.Fatalf("update_execution_queue false keeps execution.queue: %q", got)
		}
		r := e.Call(t, "queues.clear_queue", map[string]any{"queue": q}).OK(t)
		// Only tasks enqueued into this queue get their status back.
		if got := r.List("removed_tasks"); len(got) != 1 || got[0] != enqueued {
			t.Fatalf("clear answer %s", r.Raw)
		}
		if n := e.Call(t, "queues.get_num_entries", map[string]any{"queue": q}).OK(t).Num("num"); n != 0 {
			t.Fatalf("cleared queue holds %v", n)
		}
		task := e.Call(t, "tasks.get_by_id", map[string]any{"task": enqueued}).OK(t)
		if task.Str("task.status") != "created" || task.Str("task.execution.queue") != "" {
			t.Fatalf("cleared task: %s", task.Raw)
		}
		e.Call(t, "queues.clear_queue", map[string]any{"queue": "nope"}).Err(t, 400, 701)
		if r := e.Call(t, "queues.clear_queue", map[string]any{"queue": q}).OK(t); len(r.List("removed_tasks")) != 0 {
			t.Fatalf("clearing an empty queue: %s", r.Raw)
		}

		// remove_task with update_task_status gives the status back too.
		e.Call(t, "tasks.enqueue", map[string]any{"task": enqueued, "queue": q}).OK(t)
		e.Call(t, "queues.remove_task", map[string]any{"queue": q, "task": enqueued, "update_task_status": true}).OK(t)
		task = e.Call(t, "tasks.get_by_id", map[string]any{"task": enqueued}).OK(t)
		if task.Str("task.status") != "created" || task.Str("task.status_reason") != "Task was removed from the queue "+q {
			t.Fatalf("removed task: %s", task.Raw)
		}
		// Without it the task keeps its status.
		e.Call(t, "tasks.enqueue", map[string]any{"task": enqueued, "queue": q}).OK(t)
		e.Call(t, "queues.remove_task", map[string]any{"queue": q, "task": enqueued}).OK(t)
		if s := e.Call(t, "tasks.get_by_id", map[string]any{"task": enqueued}).OK(t).Str("task.status"); s != "queued" {
			t.Fatalf("plain remove_task changed the status to %s", s)
		}
	})
}

func TestHandOutOfStoppedTask(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		q := newQueue(t, e, "stopped")
		id := newTask(t, e, "aborted while queued")
		e.Call(t, "queues.add_task", map[string]any{"queue": q, "task": id}).OK(t)
		e.Call(t, "tasks.stopped", map[string]any{"task": id, "force": true}).OK(t)
		e.Call(t, "queues.get_next_task", map[string]any{"queue": q}).OK(t)
		if s := e.Call(t, "tasks.get_by_id", map[string]any{"task": id}).OK(t).Str("task.status"); s != "queued" {
			t.Fatalf("a stopped task handed out goes back to queued, got %s", s)
		}
	})
}
