package eventstore_test

import (
	"context"
	"testing"

	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

var ctx = context.Background()

// at is a fixed time, ms milliseconds after a base date.
func at(ms int64) jsonx.Time { return jsonx.FromMillis(1_700_000_000_000 + ms) }

func newTask(id, company, name string) *store.Task {
	t := &store.Task{ID: id, Company: company, Name: name, User: "u1", Type: "training", Status: "created",
		Created: at(0), LastUpdate: at(0), LastChange: at(0)}
	t.Normalize()
	return t
}

// mustTx runs fn in a transaction and fails the test on an error.
func mustTx(t *testing.T, db *store.DB, fn func(q store.Querier) error) {
	t.Helper()
	if err := db.Tx(ctx, fn); err != nil {
		t.Fatalf("transaction: %v", err)
	}
}

// purgeAll purges a deleted series chunk by chunk until it is gone.
func purgeAll(t *testing.T, db *store.DB, series int64, chunk int) {
	t.Helper()
	for done := false; !done; {
		mustTx(t, db, func(q store.Querier) error {
			var err error
			done, err = eventstore.Of(db).PurgeSeries(ctx, q, series, chunk)
			return err
		})
	}
}

// queryCount is the single number query answers.
func queryCount(t *testing.T, db *store.DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := db.Read().QueryRowContext(ctx, query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func insertTasks(t *testing.T, db *store.DB, tasks ...*store.Task) {
	t.Helper()
	mustTx(t, db, func(q store.Querier) error {
		for _, tk := range tasks {
			if err := db.Tasks().Insert(ctx, q, tk); err != nil {
				return err
			}
		}
		return nil
	})
}
