package tasks_test

import (
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/query"
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

// Found by trove-bench hostile: list filters and orderings no index serves
// (a comment pattern, search_text, hyper parameters, an order by comment)
// read every task of the company, over 2 s on a 100,000-task store, and
// get_*_tags with a filter did the same. Each list statement and each
// filtered tag read runs under limits.ListQueryTime now: past it the call
// answers a 400 saying the query was too costly (the budget is lowered
// here so a small store reaches it), and within it the same call answers.
// The budget is process-wide: the backends run one after the other.
func TestHostileListQueryBudget(t *testing.T) {
	testenv.EachSerial(t, func(t *testing.T, e *testenv.Env) {
		mkTask(t, e, "budget", obj{"comment": "some comment", "tags": []string{"x"}})
		calls := []struct {
			op   string
			body obj
		}{
			{"tasks.get_all", obj{"search_text": "no such text"}},
			{"tasks.get_all", obj{"comment": "no such comment"}},
			{"tasks.get_all_ex", obj{"order_by": []string{"comment"}, "page_size": 500}},
			{"tasks.get_all_ex", obj{"hyperparams.Args.lr.value": []string{"nope"}}},
			{"organization.get_tags", obj{"filter": obj{"system_tags": []string{"-archived"}}}},
			{"projects.get_task_tags", obj{"filter": obj{"tags": []string{"x"}}}},
		}
		restore := query.SetListQueryTime(time.Nanosecond)
		for _, c := range calls {
			r := e.Call(t, c.op, c.body).Err(t, 400, 12)
			if !strings.Contains(r.Msg(), "too costly") {
				t.Fatalf("%s %v: %s", c.op, c.body, r.Raw)
			}
		}
		restore()
		for _, c := range calls {
			e.Call(t, c.op, c.body).OK(t)
		}
	})
}
