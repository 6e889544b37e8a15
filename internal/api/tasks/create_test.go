package tasks_test

import (
	"encoding/json"
	"sort"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// TestCreateReadsBack checks the record shape of a new task (reference 1.1).
func TestCreateReadsBack(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		id := mkTask(t, e, "shape task", nil)
		task := getTask(t, e, id)
		var keys []string
		for k := range task {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		want := []string{"company", "configuration", "container", "created", "execution", "hyperparams", "id", "last_change",
			"last_changed_by", "last_iteration", "last_metrics", "last_update", "metric_stats", "models", "name", "output",
			"report_assets", "runtime", "script", "status", "system_tags", "tags", "type", "user"}
		if got, _ := json.Marshal(keys); string(got) != mustJSON(want) {
			t.Fatalf("keys:\n got %s\nwant %s", got, mustJSON(want))
		}
		checks := map[string]string{
			"status": `"created"`, "output": `{}`, "report_assets": `[]`, "tags": `[]`, "system_tags": `[]`,
			"execution": `{"parameters":{},"model_desc":{},"model_labels":{},"artifacts":[],"test_split":0}`,
			"script":    `{"binary":"python","repository":"","entry_point":"","requirements":{}}`,
			"models":    `{"input":[],"output":[]}`, "last_iteration": `0`, "last_metrics": `{}`, "container": `{}`,
		}
		for k, v := range checks {
			if got := mustJSON(task[k]); got != canon(v) {
				t.Errorf("%s: got %s want %s", k, got, v)
			}
		}
	})
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func canon(s string) string {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		panic(err)
	}
	return mustJSON(v)
}
