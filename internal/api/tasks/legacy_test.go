package tasks_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// TestLegacyParameters covers execution.parameters and model_desc of API
// versions before 2.9: written as legacy-typed hyperparams and
// configuration, read back flat by old callers, replaced as a whole by an
// old edit (the reference's behaviour; the seeds do not cover old versions).
func TestLegacyParameters(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		id := mkTask(t, e, "legacy params", obj{"execution": obj{
			"parameters": obj{"legacy.1": "val1", "TF_DEFINE/param2": "val2"},
			"model_desc": obj{"design": "hello"}}})
		readOld := func(op string) map[string]any {
			t.Helper()
			if op == "tasks.get_by_id" {
				return e.Call(t, "v2.8/"+op, obj{"task": id}).OK(t).Data["task"].(map[string]any)
			}
			return e.Call(t, "v2.8/"+op, obj{"id": []string{id}}).OK(t).List("tasks")[0].(map[string]any)
		}
		for _, op := range []string{"tasks.get_all_ex", "tasks.get_all", "tasks.get_by_id"} {
			t.Run("old read "+op, func(t *testing.T) {
				got := readOld(op)
				if mustJSON(testenv.Get(got, "execution.parameters")) != mustJSON(obj{"legacy.1": "val1", "TF_DEFINE/param2": "val2"}) ||
					mustJSON(testenv.Get(got, "execution.model_desc")) != mustJSON(obj{"design": "hello"}) {
					t.Fatalf("legacy execution: %v", got["execution"])
				}
				if testenv.Get(got, "hyperparams.TF_DEFINE.param2.value") != "val2" || testenv.Get(got, "configuration.design.value") != "hello" {
					t.Fatalf("new fields: %v %v", got["hyperparams"], got["configuration"])
				}
			})
		}
		t.Run("new read keeps execution.parameters empty", func(t *testing.T) {
			got := getTask(t, e, id)
			if mustJSON(testenv.Get(got, "execution.parameters")) != "{}" {
				t.Fatalf("execution: %v", got["execution"])
			}
		})
		t.Run("old edit replaces the legacy items", func(t *testing.T) {
			e.Call(t, "v2.8/tasks.edit", obj{"task": id, "execution": obj{"parameters": obj{"legacy.2": "val2"}, "model_desc": obj{"design": "by"}}}).OK(t)
			got := readOld("tasks.get_all_ex")
			if mustJSON(testenv.Get(got, "execution.parameters")) != mustJSON(obj{"legacy.2": "val2"}) ||
				mustJSON(testenv.Get(got, "execution.model_desc")) != mustJSON(obj{"design": "by"}) {
				t.Fatalf("after edit: %v", got["execution"])
			}
			hp := got["hyperparams"].(map[string]any)
			args, _ := hp["Args"].(map[string]any)
			if len(hp) != 1 || len(args) != 1 || args["legacy.2"] == nil {
				t.Fatalf("hyperparams after edit: %v", hp)
			}
		})
	})
}
