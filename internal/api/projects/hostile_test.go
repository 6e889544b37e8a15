package projects_test

import (
	"fmt"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// Found by trove-bench hostile: a parent filter of 999 ids was one
// condition each on the path array, and SQLite refused the expression tree
// with a 500. It is a 400 naming the field now.
func TestHostileParentFilterTooLong(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		p := create(t, e, map[string]any{"name": "hostile parent"})
		parents := []string{p}
		for i := 0; i < 998; i++ {
			parents = append(parents, fmt.Sprintf("v%d", i))
		}
		for _, op := range []string{"projects.get_all", "projects.get_all_ex"} {
			r := e.Call(t, op, map[string]any{"parent": parents}).Err(t, 400, 12)
			if r.Msg() == "" {
				t.Fatalf("%s: no message: %s", op, r.Raw)
			}
		}
		// The bound itself still lists.
		e.Call(t, "projects.get_all_ex", map[string]any{"parent": parents[:100]}).OK(t)
	})
}
