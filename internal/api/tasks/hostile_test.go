package tasks_test

import (
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// Found by trove-bench hostile on PostgreSQL: a string holding U+0000 (in
// an id or a status reason) reached the database, which stores no NUL in
// text, and the call answered 500. Both backends refuse it with a 400 that
// names the field, and the task is unchanged.
func TestHostileNULInStrings(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		id := mkTask(t, e, "hostile nul", nil)
		cases := []struct {
			op    string
			body  obj
			field string
		}{
			{"tasks.get_by_id", obj{"task": "a\x00b"}, "task"},
			{"tasks.stopped", obj{"task": id, "status_reason": "x\x00y"}, "status_reason"},
			{"tasks.publish", obj{"task": id, "status_message": "\x00"}, "status_message"},
			{"tasks.get_all", obj{"name": "\x00"}, "name"},
			{"tasks.edit", obj{"task": id, "hyperparams": obj{"A\x00": obj{}}}, "hyperparams"},
		}
		for _, c := range cases {
			r := e.Call(t, c.op, c.body).Err(t, 400, 12)
			if !strings.Contains(r.Msg(), c.field) || !strings.Contains(r.Msg(), "NUL") {
				t.Fatalf("%s: message should name %s and NUL: %s", c.op, c.field, r.Raw)
			}
		}
		if got := getTask(t, e, id)["status"]; got != "created" {
			t.Fatalf("status changed to %v", got)
		}
		// A bare NaN where a string belongs used to reach PostgreSQL as the
		// decoder's NUL-marked sentinel.
		for _, op := range []string{"tasks.publish", "tasks.get_by_id"} {
			r := e.Call(t, op, `{"task": NaN}`).Err(t, 400, 12)
			if !strings.Contains(r.Msg(), "non-finite") {
				t.Fatalf("%s: %s", op, r.Raw)
			}
		}
		// An escaped backslash followed by u0000 is ordinary text.
		e.Call(t, "tasks.edit", obj{"task": id, "comment": `a\u0000b`}).OK(t)
	})
}
