package tasks_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/testenv"
)

// tasks.update_tags adds, then removes, tags on several tasks at once; the
// answer counts each task once per non-empty list.
func TestUpdateTags(t *testing.T) {
	other := auth.FixedUser{ID: "tags-other", Name: "other", Company: "tags-company", AccessKey: "TAGSOTHERKEY0000000000000000", SecretKey: "tags-other-secret-000000000000000000000"}
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		a := mkTask(t, e, "task a", obj{"tags": []string{"keep", "drop"}})
		b := mkTask(t, e, "task b", obj{"tags": []string{"drop"}, "system_tags": []string{"sys"}})
		r := e.Call(t, "tasks.update_tags", obj{"ids": []string{a, b}, "add_tags": []string{"new", "drop2"}, "remove_tags": []string{"drop", "drop2"}}).OK(t)
		if r.Num("updated") != 4 {
			t.Fatalf("counts: %s", r.Raw)
		}
		if got := asJSON(getTask(t, e, a)["tags"]); got != `["keep","new"]` {
			t.Fatalf("a tags: %s", got)
		}
		tb := getTask(t, e, b)
		if asJSON(tb["tags"]) != `["new"]` || asJSON(tb["system_tags"]) != `["sys"]` {
			t.Fatalf("b: %v", tb)
		}
		if r := e.Call(t, "tasks.update_tags", obj{"ids": []string{a}, "remove_tags": []string{"absent"}}).OK(t); r.Num("updated") != 1 {
			t.Fatalf("remove only: %s", r.Raw)
		}
		cases := []struct {
			name  string
			body  obj
			code  int
			field string
		}{
			{"no ids", obj{"add_tags": []string{"x"}}, 12, "ids"},
			{"empty ids", obj{"ids": []string{}, "add_tags": []string{"x"}}, 12, "ids"},
			{"no tag lists", obj{"ids": []string{a}}, 12, "add_tags"},
			{"operator tag", obj{"ids": []string{a}, "add_tags": []string{"__$not"}}, 16, "add_tags"},
			{"ids not a list", obj{"ids": a, "add_tags": []string{"x"}}, 12, "ids"},
		}
		for _, c := range cases {
			if r := e.Call(t, "tasks.update_tags", c.body).Err(t, 400, c.code); !strings.Contains(r.Msg(), c.field) {
				t.Errorf("%s: %q does not name %s", c.name, r.Msg(), c.field)
			}
		}
		// An unknown id fails the call and nothing changes.
		e.Call(t, "tasks.update_tags", obj{"ids": []string{a, "nope"}, "add_tags": []string{"x"}}).Err(t, 400, 101)
		if got := asJSON(getTask(t, e, a)["tags"]); got != `["keep","new"]` {
			t.Fatalf("refused call wrote: %s", got)
		}
		// Another company's tasks are unknown to the caller.
		tok := e.Login(t, other.AccessKey, other.SecretKey)
		e.CallAs(t, tok, "tasks.update_tags", obj{"ids": []string{a}, "add_tags": []string{"x"}}).Err(t, 400, 101)
		e.Call(t, "v2.26/tasks.update_tags", obj{"ids": []string{a}, "add_tags": []string{"x"}}).Err(t, 404, 0)
	}, testenv.WithUsers(other))
}

func asJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
