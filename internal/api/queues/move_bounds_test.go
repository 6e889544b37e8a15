package queues_test

import (
	"math"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// TestMoveAtTheEnds: moving the only task of a queue, or any task past an
// end by any count, answers its clamped position instead of failing
// (issue 12: a panic on a queue that holds only that task).
func TestMoveAtTheEnds(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		q := newQueue(t, e, "ends")
		only := newTask(t, e, "only")
		e.Call(t, "queues.add_task", map[string]any{"queue": q, "task": only}).OK(t)
		for _, op := range []string{"queues.move_task_forward", "queues.move_task_backward"} {
			for _, count := range []int{1, 5, math.MaxInt32} {
				got := e.Call(t, op, map[string]any{"queue": q, "task": only, "count": count}).OK(t).Num("position")
				if got != 0 {
					t.Fatalf("%s count %d on a one-task queue: position %v", op, count, got)
				}
			}
		}
		second := newTask(t, e, "second")
		e.Call(t, "queues.add_task", map[string]any{"queue": q, "task": second}).OK(t)
		if got := e.Call(t, "queues.move_task_backward", map[string]any{"queue": q, "task": only, "count": math.MaxInt32}).OK(t).Num("position"); got != 1 {
			t.Fatalf("backward by a huge count: position %v, want 1", got)
		}
		if got := e.Call(t, "queues.move_task_forward", map[string]any{"queue": q, "task": only, "count": math.MaxInt32}).OK(t).Num("position"); got != 0 {
			t.Fatalf("forward by a huge count: position %v, want 0", got)
		}
		_ = second
	})
}
