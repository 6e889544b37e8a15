package tasks_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// operations are the 47 tasks.* operations of the seeds.
var operations = []string{
	"add_or_update_artifacts", "add_or_update_model", "archive", "archive_many", "clone", "close", "completed", "create",
	"delete", "delete_artifacts", "delete_configuration", "delete_hyper_params", "delete_many", "delete_models", "dequeue",
	"dequeue_many", "edit", "edit_configuration", "edit_hyper_params", "enqueue", "enqueue_many", "failed", "get_all",
	"get_all_ex", "get_by_id", "get_by_id_ex", "get_configuration_names", "get_configurations", "get_hyper_params",
	"get_types", "make_private", "make_public", "move", "ping", "publish", "publish_many", "reset", "reset_many",
	"set_requirements", "started", "stop", "stop_many", "stopped", "unarchive_many", "update", "update_batch", "validate",
}

// TestEveryOperationAnswers calls each operation with empty, mistyped and
// unknown-id bodies: each is served (never 404) and never fails with 5xx.
func TestEveryOperationAnswers(t *testing.T) {
	if len(operations) != 47 {
		t.Fatalf("%d operations listed", len(operations))
	}
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		bodies := []any{
			obj{},
			obj{"task": 5, "ids": "x", "tasks": 3, "name": []int{1}, "hyperparams": "x", "configuration": 1, "artifacts": obj{}, "models": 2},
			obj{"task": "nope", "ids": []string{"nope"}, "tasks": []string{"nope"}, "project": "nope"},
			`{"task": `,
		}
		for _, op := range operations {
			for i, b := range bodies {
				r := e.Call(t, "tasks."+op, b)
				if r.Status == 404 || r.Status >= 500 || r.Meta == nil {
					t.Errorf("tasks.%s body %d: HTTP %d %s", op, i, r.Status, r.Raw)
				}
			}
		}
	})
}
