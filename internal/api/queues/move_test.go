package queues_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

func TestMove(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		q := newQueue(t, e, "moves")
		tk := newTasks(t, e, 5)
		for _, id := range tk {
			e.Call(t, "queues.add_task", map[string]any{"queue": q, "task": id}).OK(t)
		}
		a, b, c, d, f := tk[0], tk[1], tk[2], tk[3], tk[4]
		// Each step runs on the queue as left by the steps before.
		steps := []struct {
			name  string
			op    string
			body  map[string]any
			pos   int
			order []string
		}{
			{"forward one", "queues.move_task_forward", map[string]any{"task": c}, 1, []string{a, c, b, d, f}},
			{"forward past the top", "queues.move_task_forward", map[string]any{"task": d, "count": 10}, 0, []string{d, a, c, b, f}},
			{"top forward stays", "queues.move_task_forward", map[string]any{"task": d}, 0, []string{d, a, c, b, f}},
			{"backward two", "queues.move_task_backward", map[string]any{"task": a, "count": 2}, 3, []string{d, c, b, a, f}},
			{"backward past the end", "queues.move_task_backward", map[string]any{"task": c, "count": 9}, 4, []string{d, b, a, f, c}},
			{"to front", "queues.move_task_to_front", map[string]any{"task": f}, 0, []string{f, d, b, a, c}},
			{"to back", "queues.move_task_to_back", map[string]any{"task": d}, 4, []string{f, b, a, c, d}},
			{"back is a no-op at the back", "queues.move_task_to_back", map[string]any{"task": d}, 4, []string{f, b, a, c, d}},
			// Moving between the same neighbours again and again uses up
			// the room between them and renumbers the queue.
			{"shuffle 1", "queues.move_task_backward", map[string]any{"task": f}, 1, []string{b, f, a, c, d}},
			{"shuffle 2", "queues.move_task_forward", map[string]any{"task": a}, 1, []string{b, a, f, c, d}},
			{"shuffle 3", "queues.move_task_forward", map[string]any{"task": f}, 1, []string{b, f, a, c, d}},
			{"shuffle 4", "queues.move_task_forward", map[string]any{"task": a}, 1, []string{b, a, f, c, d}},
			{"shuffle 5", "queues.move_task_forward", map[string]any{"task": f}, 1, []string{b, f, a, c, d}},
			// A negative count moves the other way (the web app's drag up).
			{"backward minus two is forward two", "queues.move_task_backward", map[string]any{"task": c, "count": -2}, 1, []string{b, c, f, a, d}},
			{"forward minus one is backward one", "queues.move_task_forward", map[string]any{"task": c, "count": -1}, 2, []string{b, f, c, a, d}},
			{"forward zero stays", "queues.move_task_forward", map[string]any{"task": c, "count": 0}, 2, []string{b, f, c, a, d}},
			{"backward minus huge stops at the top", "queues.move_task_backward", map[string]any{"task": a, "count": -1 << 40}, 0, []string{a, b, f, c, d}},
		}
		for _, st := range steps {
			st.body["queue"] = q
			r := e.Call(t, st.op, st.body).OK(t)
			if int(r.Num("position")) != st.pos {
				t.Fatalf("%s: position %v, want %d", st.name, r.Data["position"], st.pos)
			}
			if got := entryTasks(t, e, q); !sameList(got, st.order...) {
				t.Fatalf("%s: order %v, want %v", st.name, got, st.order)
			}
		}
		other := newQueue(t, e, "other-moves")
		for _, tc := range []struct {
			op   string
			body map[string]any
			sub  int
		}{
			{"queues.move_task_forward", map[string]any{"queue": q, "task": a, "count": "x"}, 12},
			{"queues.move_task_forward", map[string]any{"queue": other, "task": a}, 703},
			{"queues.move_task_to_front", map[string]any{"queue": "nope", "task": a}, 701},
			{"queues.move_task_to_back", map[string]any{"queue": q}, 12},
		} {
			e.Call(t, tc.op, tc.body).Err(t, 400, tc.sub)
		}
		if got := entryTasks(t, e, q); !sameList(got, a, b, f, c, d) {
			t.Fatalf("refused moves changed the queue: %v", got)
		}
	})
}
