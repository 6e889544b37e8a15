package api_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/limits"
	"github.com/trove-ml/trove/internal/testenv"
)

type obj = map[string]any

func manyIDs(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%032x", i)
	}
	return out
}

// TestRequestLimits: sizes the database would refuse, or that would run
// away, are refused with a 400 naming the field and the limit before the
// database sees them (issue 12, findings 3 and 4).
func TestRequestLimits(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		tags := make([]string, 999)
		for i := range tags {
			tags[i] = fmt.Sprintf("t%d", i)
		}
		cases := []struct {
			name, op string
			body     obj
			mention  []string
		}{
			{"ids beyond the bind limit", "tasks.get_all", obj{"id": manyIDs(32766)}, []string{"id", "10000"}},
			{"tasks of get_task_metrics", "events.get_task_metrics", obj{"tasks": manyIDs(limits.ListItems + 1)}, []string{"tasks", "10000"}},
			{"projects.get_all ids", "projects.get_all", obj{"id": manyIDs(limits.ListItems + 1)}, []string{"id"}},
			{"models.get_frameworks projects", "models.get_frameworks", obj{"projects": manyIDs(limits.ListItems + 1)}, []string{"projects"}},
			{"ids of a _many call", "tasks.delete_many", obj{"ids": manyIDs(70000)}, []string{"ids", "10000"}},
			{"999 tag filters", "tasks.get_all", obj{"tags": tags}, []string{"tags", "100"}},
			{"999 operator tag filters", "tasks.get_all", obj{"system_tags": append([]string{"__$all"}, tags...)}, []string{"system_tags"}},
			{"huge search text", "tasks.get_all_ex", obj{"search_text": strings.Repeat("x", 50000)}, []string{"search_text", "1024"}},
			{"many search words", "projects.get_all_ex", obj{"search_text": strings.Repeat("ab ", 100)}, []string{"search_text", "32"}},
			{"16 KiB name regex", "projects.get_all", obj{"name": strings.Repeat("(a|b)*", 16384/6)}, []string{"name", "1024"}},
			{"complex name regex", "tasks.get_all", obj{"name": "(abcdefghijklmnop){999}"}, []string{"name", "complex"}},
			{"300,000-character project name", "projects.create", obj{"name": strings.Repeat("p", 300000)}, []string{"name", "1024"}},
			{"long tag", "tasks.create", obj{"name": "task", "type": "training", "tags": []string{strings.Repeat("t", limits.Tag+1)}}, []string{"tags", "256"}},
			{"long status message", "tasks.stopped", obj{"task": "x", "status_message": strings.Repeat("m", limits.Message+1)}, []string{"status_message", "4096"}},
		}
		for _, c := range cases {
			r := e.Call(t, c.op, c.body).Err(t, 400, 12)
			for _, m := range c.mention {
				if !strings.Contains(r.Msg(), m) {
					t.Errorf("%s: message %q does not mention %q", c.name, r.Msg(), m)
				}
			}
		}
		// A field name with a NUL would cut SQLite's JSON path short (found
		// by FuzzListQuery).
		e.Call(t, "tasks.get_all", "{\"hyperparams.\\u0000\": 0}").Err(t, 400, 12)
		// At the limits, the same calls are served.
		e.Call(t, "tasks.get_all", obj{"id": manyIDs(limits.ListItems)}).OK(t)
		e.Call(t, "tasks.get_all", obj{"tags": tags[:limits.FilterValues]}).OK(t)
		e.Call(t, "tasks.get_all", obj{"system_tags": append([]string{"__$all"}, tags[:limits.FilterValues-1]...)}).OK(t)
		e.Call(t, "tasks.get_all_ex", obj{"search_text": strings.Repeat("x", limits.SearchText)}).OK(t)
		e.Call(t, "projects.create", obj{"name": strings.Repeat("p", limits.Name)}).OK(t)
	})
}

// TestCostlyPatternIsBounded: a name pattern within the size limits but
// costly over many long names stops at its matching budget on SQLite with
// a 400 naming the field, or at the call's deadline (issue 12, finding 4).
func TestCostlyPatternIsBounded(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		name := strings.Repeat("ab", limits.Name/2-8)
		for i := 0; i < 300; i++ {
			e.Call(t, "tasks.create", obj{"name": fmt.Sprintf("%04d%s", i, name), "type": "training"}).OK(t)
		}
		start := time.Now()
		r := e.Call(t, "tasks.get_all", obj{"name": "(a|b|ab|ba){0,200}c", "only_fields": []string{"id"}})
		took := time.Since(start)
		t.Logf("%s: costly pattern answered %d in %s", e.Backend, r.Status, took)
		if e.Backend == "sqlite" {
			r.Err(t, 400, 12)
			if !strings.Contains(r.Msg(), "name") || !strings.Contains(r.Msg(), "costly") {
				t.Fatalf("message %q", r.Msg())
			}
			if took > limits.PatternTime+5*time.Second {
				t.Fatalf("the costly pattern took %s", took)
			}
		}
		// The patterns of one query share the budget: 24 pattern fields
		// are not 24 budgets.
		if e.Backend == "sqlite" {
			fields := make([]string, 24)
			for i := range fields {
				fields[i] = "name"
			}
			start = time.Now()
			e.Call(t, "tasks.get_all", obj{"_any_": obj{"fields": fields, "pattern": "(a|b|ab|ba){0,200}c"}}).Err(t, 400, 12)
			if took := time.Since(start); took > limits.PatternTime+5*time.Second {
				t.Fatalf("24 costly pattern fields took %s", took)
			}
		}
		// A plain pattern over the same rows is served.
		if got := len(e.Call(t, "tasks.get_all", obj{"name": "^0001", "only_fields": []string{"id"}}).OK(t).List("tasks")); got != 1 {
			t.Fatalf("plain pattern found %d tasks", got)
		}
	})
}
