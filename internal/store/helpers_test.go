package store_test

import (
	"context"
	"testing"

	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
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
