package tasks_test

import (
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// TestModelLabelsIntegralFloats: model_labels sent as integral floats (the
// reference suite's clone sends {"test": 1.0}) are the integers they name;
// a fractional label is a 400 naming the field.
func TestModelLabelsIntegralFloats(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		id := mkTask(t, e, "labels source", nil)
		r := e.Call(t, "tasks.clone", obj{"task": id, "execution_overrides": obj{"framework": "Caffe", "model_labels": obj{"test": 1.0, "big": 2e3}}}).OK(t)
		clone := getTask(t, e, r.Str("id"))
		if mustJSON(testenv.Get(clone, "execution.model_labels")) != `{"big":2000,"test":1}` {
			t.Fatalf("clone labels: %v", clone["execution"])
		}
		e.Call(t, "tasks.edit", obj{"task": id, "execution": obj{"model_labels": obj{"x": 3.0}}}).OK(t)
		if mustJSON(testenv.Get(getTask(t, e, id), "execution.model_labels")) != `{"x":3}` {
			t.Fatal("edit labels")
		}
		for _, bad := range []any{obj{"x": 1.5}, obj{"x": "1"}, []int{1}} {
			r := e.Call(t, "tasks.clone", obj{"task": id, "execution_overrides": obj{"model_labels": bad}}).Err(t, 400, 12)
			if !strings.Contains(r.Msg(), "model_labels") {
				t.Fatalf("message %q does not name the field", r.Msg())
			}
		}
	})
}
