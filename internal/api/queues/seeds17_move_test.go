package queues_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// Seed document 1, queues.move_task_backward: "count (integer, default 1,
// positions to move)"; the answer is "position (integer, index ...)".
func TestSeedMoveBackwardDefaultCount(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		q := newQueue(t, e, "moves")
		tk := newTasks(t, e, 3)
		for _, id := range tk {
			e.Call(t, "tasks.enqueue", map[string]any{"task": id, "queue": q}).OK(t)
		}
		r := e.Call(t, "queues.move_task_backward", map[string]any{"queue": q, "task": tk[0]}).OK(t)
		if r.Num("position") != 1 || !sameList(entryTasks(t, e, q), tk[1], tk[0], tk[2]) {
			t.Fatalf("one position back: %s %v", r.Raw, entryTasks(t, e, q))
		}
	})
}
