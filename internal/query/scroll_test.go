package query_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/store"
)

func TestScroll(t *testing.T) {
	each(t, func(t *testing.T, db *store.DB) {
		page := func(body string) ([]string, string) {
			t.Helper()
			res, err := list(db, body, query.Options{})
			if err != nil {
				t.Fatalf("%s: %v", body, err)
			}
			if res.ScrollID == nil || *res.ScrollID == "" {
				t.Fatalf("%s: no scroll id", body)
			}
			return ids(res), *res.ScrollID
		}
		got, id := page(`{"scroll_id": null, "size": 3}`)
		if !reflect.DeepEqual(got, []string{"t1", "t2", "t3"}) {
			t.Fatalf("first page %v", got)
		}
		for _, step := range []struct {
			body string
			want []string
		}{
			{`{"scroll_id": %q, "size": 3}`, []string{"t4"}},
			{`{"scroll_id": %q, "size": 3}`, []string{}},
			// Refreshing returns everything read so far, from the start.
			{`{"scroll_id": %q, "size": 1, "refresh_scroll": true}`, all()},
		} {
			var next string
			got, next = page(fmt.Sprintf(step.body, id))
			if next != id {
				t.Fatalf("scroll id changed from %s to %s", id, next)
			}
			if !reflect.DeepEqual(got, step.want) {
				t.Fatalf("%s: %v, want %v", step.body, got, step.want)
			}
		}
		// An unknown id starts a new scroll.
		got, other := page(`{"scroll_id": "unknown", "size": 2, "order_by": ["-name"]}`)
		if other == id || !reflect.DeepEqual(got, []string{"t3", "t4"}) {
			t.Fatalf("new scroll %s: %v", other, got)
		}
		runCases(t, db, []listCase{
			{name: "scroll without size", body: `{"scroll_id": ""}`, errCode: 12},
			{name: "scroll id not a string", body: `{"scroll_id": 5, "size": 1}`, errCode: 12},
		})
	})
}

func TestCountAndListFilter(t *testing.T) {
	each(t, func(t *testing.T, db *store.DB) {
		body := []byte(`{"tags": ["b"], "page_size": 1}`)
		var req query.Request
		if err := json.Unmarshal(body, &req); err != nil {
			t.Fatal(err)
		}
		plan, err := query.Build(db.D, schema, &req, body, query.Options{})
		if err != nil {
			t.Fatal(err)
		}
		plan.WhereIn("company", []string{"c1", "c2"})
		// Count ignores paging.
		if n, err := plan.Count(ctx, db, "tasks"); err != nil || n != 2 {
			t.Fatalf("count %d, %v", n, err)
		}
		cond, args, err := query.ListFilter(db.D, schema, "tags", json.RawMessage(`["a", "-b"]`))
		if err != nil {
			t.Fatal(err)
		}
		got, err := store.IDs(ctx, db.Read(), "SELECT id FROM tasks WHERE "+cond+" ORDER BY id", args...)
		if err != nil || !reflect.DeepEqual(got, []string{"x1"}) {
			t.Fatalf("list filter: %v, %v", got, err)
		}
	})
}
