package tasks_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// TestValidate checks that tasks.validate applies create's rules and
// writes nothing.
func TestValidate(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		cases := []struct {
			name    string
			body    map[string]any
			code    int
			subcode int
		}{
			{"valid", map[string]any{"name": "valid task", "type": "training"}, 200, 0},
			{"missing name", map[string]any{"type": "training"}, 400, 12},
			{"missing type", map[string]any{"name": "valid task"}, 400, 12},
			{"bad type", map[string]any{"name": "valid task", "type": "bogus"}, 400, 12},
			{"short name", map[string]any{"name": "ab", "type": "training"}, 400, 800},
			{"unknown project", map[string]any{"name": "valid task", "type": "training", "project": "nope"}, 400, 401},
			{"unknown parent", map[string]any{"name": "valid task", "type": "training", "parent": "nope"}, 400, 101},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				r := e.Call(t, "tasks.validate", tc.body)
				if tc.code == 200 {
					r.OK(t)
				} else {
					r.Err(t, tc.code, tc.subcode)
				}
			})
		}
		if n := len(e.Call(t, "tasks.get_all", nil).OK(t).List("tasks")); n != 0 {
			t.Fatalf("validate must not create tasks, found %d", n)
		}
	})
}
