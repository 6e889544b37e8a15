package tasks_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// TestDatesOutsideTheWireRange: a date the wire format cannot express
// (years 1 to 9999) is refused with a 400 naming the field, and the task
// stays readable and editable (issue 12, a poisoned record).
func TestDatesOutsideTheWireRange(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		id := mkTask(t, e, "dated task", nil)
		for _, v := range []any{253402300800000, -62135596801000, 1e308, -1e18,
			json.RawMessage("123456789012345678901234567890"), "10000-01-01T00:00:00"} {
			r := e.Call(t, "tasks.update", obj{"task": id, "created": v}).Err(t, 400, 12)
			if !strings.Contains(r.Msg(), "created") {
				t.Errorf("created=%v: message %q does not name the field", v, r.Msg())
			}
		}
		e.Call(t, "tasks.update", obj{"task": id, "created": 253402300799999}).OK(t)
		if got := getTask(t, e, id)["created"]; got != "9999-12-31T23:59:59.999000+00:00" {
			t.Fatalf("created = %v", got)
		}
		e.Call(t, "tasks.update", obj{"task": id, "comment": "still editable"}).OK(t)
		e.Call(t, "tasks.reset", obj{"task": id}).OK(t)
		e.Call(t, "tasks.delete", obj{"task": id}).OK(t)
	})
}
