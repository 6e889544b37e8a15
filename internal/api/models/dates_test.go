package models_test

import (
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// TestModelDatesOutsideTheWireRange: models.update refuses a created date
// outside years 1 to 9999 with a 400 naming the field, and the model stays
// readable (issue 12, a poisoned record).
func TestModelDatesOutsideTheWireRange(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		id := e.Call(t, "models.create", map[string]any{"name": "dated model", "uri": "file:///m.bin"}).OK(t).Str("id")
		for _, v := range []any{1e308, 253402300800000, -1e18} {
			r := e.Call(t, "models.update", map[string]any{"model": id, "created": v}).Err(t, 400, 12)
			if !strings.Contains(r.Msg(), "created") {
				t.Errorf("created=%v: message %q does not name the field", v, r.Msg())
			}
		}
		e.Call(t, "models.get_by_id", map[string]any{"model": id}).OK(t)
	})
}
