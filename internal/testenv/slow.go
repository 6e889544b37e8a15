package testenv

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/store"
)

// A slow request for tests of cancellation and shutdown: a tasks.get_all
// whose statement blocks until the request's context ends, whatever the
// machine's speed (a test must never rely on a query outlasting a grace
// period). SlowListBody searches for stallWord; StallTaskLists makes that
// search block:
//   - SQLite: the store runs an endless statement in its place
//     (store.StallQueries), spending a core until it is interrupted, so a
//     test also sees whether the interruption stops the work;
//   - PostgreSQL: the test holds an ACCESS EXCLUSIVE lock on the tasks
//     table until its cleanup, so the list waits on the lock (an active
//     statement in pg_stat_activity) until it is cancelled.

// stallWord is the word SlowListBody searches for.
const stallWord = "trovestallsearchword"

// SlowListBody is the tasks.get_all body that StallTaskLists blocks.
func SlowListBody(string) map[string]any {
	return map[string]any{"search_text": stallWord}
}

// StallTaskLists makes SlowListBody's request block until it is cancelled,
// until the test ends. dbURL is the PostgreSQL URL of the server's store
// (unused on SQLite). The list query budget (limits.ListQueryTime) is
// raised for the test so that the blocked statement is not stopped by it.
func StallTaskLists(t testing.TB, backend, dbURL string) {
	t.Helper()
	t.Cleanup(query.SetListQueryTime(10 * time.Minute))
	if backend != "postgres" {
		t.Cleanup(store.StallQueries(stallWord))
		return
	}
	db, err := sql.Open("pgx", dbURL)
	if err != nil {
		t.Fatalf("open %s: %v", dbURL, err)
	}
	ctx := context.Background()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		db.Close()
		t.Fatalf("begin: %v", err)
	}
	if _, err := tx.ExecContext(ctx, `LOCK TABLE tasks IN ACCESS EXCLUSIVE MODE`); err != nil {
		tx.Rollback()
		db.Close()
		t.Fatalf("lock tasks: %v", err)
	}
	t.Cleanup(func() {
		tx.Rollback()
		db.Close()
	})
}

// DBURL is the PostgreSQL URL of e's store ("" on SQLite).
func (e *Env) DBURL() string { return e.App.Cfg.DB }
