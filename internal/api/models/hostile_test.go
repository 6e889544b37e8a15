package models_test

import (
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// Found by trove-bench hostile on PostgreSQL: a list filter value holding
// U+0000 reached the database as a bind argument and the call answered
// 500. It is a 400 naming the field on both backends.
func TestHostileNULInFilters(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		for _, body := range []map[string]any{
			{"framework": []string{"\x00"}},
			{"name": "\x00"},
			{"id": []string{"a\x00"}},
			{"tags": []string{"x\x00"}},
		} {
			r := e.Call(t, "models.get_all", body)
			if r.Status != 400 || !strings.Contains(r.Msg(), "NUL") {
				t.Fatalf("%v: want a 400 about NUL, got %d: %s", body, r.Status, r.Raw)
			}
		}
	})
}
