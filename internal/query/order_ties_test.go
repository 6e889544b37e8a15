package query_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// Tasks updated at the same millisecond come in insertion order, the way
// last_update goes (newest inserted first when descending), on both
// backends; pages of such a list neither repeat nor skip a task.
func TestOrderTiesOnLastUpdateFollowInsertion(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		// Inserted b, c, a: the ids' order differs from the insertion order.
		err := db.Tx(ctx, func(q store.Querier) error {
			for i, id := range []string{"b", "c", "a", "z"} {
				tk := &store.Task{ID: id, Company: "c1", User: "u1", Name: id, Type: "training", Status: "created"}
				tk.Created, tk.LastUpdate, tk.LastChange = day(1), day(1), day(1)
				if i == 3 {
					tk.Created, tk.LastUpdate, tk.LastChange = day(2), day(2), day(2)
				}
				tk.Normalize()
				if err := db.Tasks().Insert(ctx, q, tk); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		runCases(t, db, []listCase{
			{name: "descending: newest, then ties newest inserted first", body: `{"order_by": ["-last_update"]}`, want: []string{"z", "a", "c", "b"}},
			{name: "ascending: ties oldest inserted first", body: `{"order_by": ["last_update"]}`, want: []string{"b", "c", "a", "z"}},
			{name: "first page", body: `{"order_by": ["-last_update"], "page": 0, "page_size": 2}`, want: []string{"z", "a"}},
			{name: "second page", body: `{"order_by": ["-last_update"], "page": 1, "page_size": 2}`, want: []string{"c", "b"}},
			{name: "id named: id breaks the tie", body: `{"order_by": ["-last_update", "id"]}`, want: []string{"z", "a", "b", "c"}},
			{name: "created, a NOT NULL column too", body: `{"order_by": ["created"]}`, want: []string{"b", "c", "a", "z"}},
		})
	})
}
