package queues_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// TestEndpointsRegistered checks that every queues operation of the seeds
// answers (a 404 would mean it is not registered).
func TestEndpointsRegistered(t *testing.T) {
	e := testenv.New(t, "sqlite")
	for _, op := range []string{"add_or_update_metadata", "add_task", "create", "delete", "delete_metadata", "get_all",
		"get_all_ex", "get_by_id", "get_default", "get_next_task", "get_num_entries", "get_queue_metrics",
		"move_task_backward", "move_task_forward", "move_task_to_back", "move_task_to_front", "peek_task",
		"remove_task", "update", "clear_queue"} {
		if r := e.Call(t, "queues."+op, map[string]any{}); r.Status == 404 {
			t.Errorf("queues.%s is not registered: %s", op, r.Raw)
		}
	}
}
