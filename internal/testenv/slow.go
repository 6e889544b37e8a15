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

// WaitStalled waits until n of StallTaskLists' requests are held (n = 0:
// until none is running any more), and fails the test if that takes longer
// than within. On SQLite it counts the store's endless statements, on
// PostgreSQL the statements of dbURL's database waiting on a lock. A test
// waits for the state it needs instead of sleeping for it.
func WaitStalled(t testing.TB, backend, dbURL string, n int, within time.Duration) {
	t.Helper()
	count := func() int { return int(store.StalledQueries()) }
	if backend == "postgres" {
		db, err := sql.Open("pgx", dbURL)
		if err != nil {
			t.Fatalf("open %s: %v", dbURL, err)
		}
		defer db.Close()
		count = func() int {
			var c int
			err := db.QueryRow(`SELECT count(*) FROM pg_stat_activity
				WHERE datname = current_database() AND state = 'active' AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`).Scan(&c)
			if err != nil {
				t.Fatalf("pg_stat_activity: %v", err)
			}
			return c
		}
	}
	deadline := time.Now().Add(within)
	for {
		c := count()
		if c == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d stalled requests after %s, want %d", c, within, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// DBURL is the PostgreSQL URL of e's store ("" on SQLite).
func (e *Env) DBURL() string { return e.App.Cfg.DB }
