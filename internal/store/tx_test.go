package store_test

import (
	"errors"
	"path/filepath"
	"sync"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

func TestOpenMigratesOnceAndReopens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trove.db")
	var versions int
	for i := 0; i < 2; i++ {
		db, err := store.Open(ctx, path, "")
		if err != nil {
			t.Fatalf("open #%d: %v", i+1, err)
		}
		n := 0
		if err := db.Read().QueryRowContext(ctx, "SELECT COUNT(*) FROM schema_migrations").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			versions = n
		} else if n != versions {
			t.Errorf("reopen recorded %d migrations, first open %d", n, versions)
		}
		if i == 0 {
			insertTasks(t, db, newTask("kept", "c1", "n"))
		} else if _, err := db.Tasks().Get(ctx, db.Read(), "kept"); err != nil {
			t.Errorf("row lost on reopen: %v", err)
		}
		db.Close()
	}
	if versions == 0 {
		t.Fatal("no migration recorded")
	}
}

func TestOpenEmptyDSNUsesDataDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	db, err := store.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.D.Name() != "sqlite" {
		t.Fatalf("dialect %s", db.D.Name())
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "trove.db")); len(m) != 1 {
		t.Fatal("trove.db not created in the data dir")
	}
}

func TestTxRollsBackOnError(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		boom := errors.New("boom")
		err := db.Tx(ctx, func(q store.Querier) error {
			if err := db.Tasks().Insert(ctx, q, newTask("t1", "c1", "n")); err != nil {
				return err
			}
			// The transaction sees its own write...
			if _, err := db.Tasks().Get(ctx, q, "t1"); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("Tx returned %v, want the function's error", err)
		}
		// ... which is gone after the rollback.
		if _, err := db.Tasks().Get(ctx, db.Read(), "t1"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("rolled back insert is visible: %v", err)
		}
	})
}

func TestTxRollsBackOnPanic(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("the panic did not propagate")
				}
			}()
			_ = db.Tx(ctx, func(q store.Querier) error {
				if err := db.Tasks().Insert(ctx, q, newTask("t1", "c1", "n")); err != nil {
					return err
				}
				panic("boom")
			})
		}()
		if _, err := db.Tasks().Get(ctx, db.Read(), "t1"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("insert of a panicking transaction is visible: %v", err)
		}
		// The writer is usable afterwards.
		insertTasks(t, db, newTask("t2", "c1", "n"))
	})
}

// TestGetForUpdateSerializesWriters: concurrent read-modify-write
// transactions that load the row with GetForUpdate lose no update.
func TestGetForUpdateSerializesWriters(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		insertTasks(t, db, newTask("t1", "c1", "n"))
		const writers, rounds = 4, 10
		var wg sync.WaitGroup
		errs := make(chan error, writers)
		for w := 0; w < writers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < rounds; i++ {
					err := db.Tx(ctx, func(q store.Querier) error {
						tk, err := db.Tasks().GetForUpdate(ctx, q, "t1", "c1")
						if err != nil {
							return err
						}
						tk.LastIteration++
						return db.Tasks().Update(ctx, q, tk)
					})
					if err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		tk, err := db.Tasks().Get(ctx, db.Read(), "t1")
		if err != nil {
			t.Fatal(err)
		}
		if tk.LastIteration != writers*rounds {
			t.Fatalf("counter is %d, want %d: an update was lost", tk.LastIteration, writers*rounds)
		}
		err = db.Tx(ctx, func(q store.Querier) error {
			_, err := db.Tasks().GetForUpdate(ctx, q, "t1", "other-company")
			return err
		})
		if !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("GetForUpdate of another company: %v", err)
		}
	})
}
