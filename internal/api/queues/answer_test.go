package queues_test

import (
	"context"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

// TestQueueAnswerPinned pins, byte for byte on both backends, queues.get_by_id
// of a queue with every member set (its resources, which only project
// usages read, are not answered) and entries, and of a bare one.
// Timestamps and ids are masked (testenv.Pinned).
func TestQueueAnswerPinned(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		full := newQueue(t, e, "pinned full", map[string]any{"display_name": "GPUs", "tags": []string{"b", "a"},
			"system_tags": []string{"s"}, "metadata": []map[string]any{{"key": "k", "type": "str", "value": "v"}}})
		bare := newQueue(t, e, "pinned bare")
		tasks := newTasks(t, e, 2)
		for _, id := range tasks {
			e.Call(t, "tasks.enqueue", map[string]any{"task": id, "queue": full}).OK(t)
		}
		ctx, cpu := context.Background(), 2.5
		err := e.App.DB.Tx(ctx, func(q store.Querier) error {
			qu, err := e.App.DB.Queues().Get(ctx, q, full)
			if err != nil {
				return err
			}
			qu.Resources = &store.QueueResources{CPUUsage: &cpu}
			return e.App.DB.Queues().Update(ctx, q, qu)
		})
		if err != nil {
			t.Fatal(err)
		}
		got := e.Call(t, "queues.get_by_id", map[string]any{"queue": full}).OK(t)
		names := map[string]string{"<full>": full, "<bare>": bare, "<task0>": tasks[0], "<task1>": tasks[1],
			"<company>": got.Str("queue.company")}
		testenv.CheckPinned(t, names, []testenv.PinnedCase{
			{Name: "full", Got: got, Want: pinnedFullQueue},
			{Name: "one entry", Got: e.Call(t, "queues.get_by_id", map[string]any{"queue": full, "max_task_entries": 1}).OK(t), Want: pinnedQueueOneEntry},
			{Name: "bare", Got: e.Call(t, "queues.get_by_id", map[string]any{"queue": bare}).OK(t), Want: pinnedBareQueue},
		})
	})
}

const (
	pinnedFullQueue     = `{"queue":{"id":"<full>","company":"<company>","name":"pinned full","display_name":"GPUs","created":"<time>","last_update":"<time>","tags":["a","b"],"system_tags":["s"],"metadata":{"k":{"key":"k","type":"str","value":"v"}},"entries":[{"task":"<task0>","added":"<time>"},{"task":"<task1>","added":"<time>"}]}}`
	pinnedQueueOneEntry = `{"queue":{"id":"<full>","company":"<company>","name":"pinned full","display_name":"GPUs","created":"<time>","last_update":"<time>","tags":["a","b"],"system_tags":["s"],"metadata":{"k":{"key":"k","type":"str","value":"v"}},"entries":[{"task":"<task0>","added":"<time>"}]}}`
	pinnedBareQueue     = `{"queue":{"id":"<bare>","company":"<company>","name":"pinned bare","created":"<time>","last_update":"<time>","tags":[],"system_tags":[],"metadata":{},"entries":[]}}`
)
