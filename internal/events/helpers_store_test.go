package events

import (
	"context"
	"testing"

	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

// newStoredTask inserts an in-progress task of company and returns its id.
func newStoredTask(t testing.TB, db *store.DB, company, name string) string {
	t.Helper()
	now := jsonx.Now()
	task := &store.Task{ID: ids.New(), Company: company, User: "u", Name: name, Type: "training",
		Status: "in_progress", Created: now, LastUpdate: now, LastChange: now, Started: &now}
	task.Normalize()
	if err := db.Tasks().Insert(context.Background(), db.Write(), task); err != nil {
		t.Fatal(err)
	}
	return task.ID
}
