package store_test

import (
	"errors"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// A row version read with a document stays the same while the row is only
// locked, and changes with every write of the row, even a write of the
// same document and a second write in one transaction.
func TestRowVersionFollowsWrites(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		tasks := db.Tasks()
		insertTasks(t, db, newTask("t1", "c", "versioned"))
		read := func() *store.StoredDoc[*store.Task] {
			t.Helper()
			sd, err := tasks.GetStored(ctx, db.Read(), "t1", "c")
			if err != nil || sd.Version == "" || sd.Rec.Name != "versioned" {
				t.Fatalf("GetStored: %v %+v", err, sd)
			}
			return sd
		}
		lock := func(q store.Querier) string {
			t.Helper()
			v, err := tasks.LockVersion(ctx, q, "t1", "c")
			if err != nil {
				t.Fatalf("LockVersion: %v", err)
			}
			return v
		}
		first := read()
		mustTx(t, db, func(q store.Querier) error {
			if v := lock(q); v != first.Version {
				t.Errorf("locking changed the version: %q -> %q", first.Version, v)
			}
			return nil
		})
		if again := read(); again.Version != first.Version {
			t.Errorf("version moved without a write: %q -> %q", first.Version, again.Version)
		}

		var inTx []string
		mustTx(t, db, func(q store.Querier) error {
			for range 2 {
				sd, err := tasks.GetStored(ctx, q, "t1", "c")
				if err != nil {
					return err
				}
				sd.Rec.LastIteration++
				if err := tasks.Update(ctx, q, sd.Rec); err != nil {
					return err
				}
				inTx = append(inTx, lock(q))
			}
			return nil
		})
		second := read()
		if inTx[0] == first.Version || second.Version == first.Version || second.Rec.LastIteration != 2 {
			t.Errorf("a write kept the version: before %q, in the transaction %q, after %q", first.Version, inTx, second.Version)
		}
		if db.D.Name() == "sqlite" && inTx[0] == inTx[1] {
			t.Errorf("SQLite versions of two documents are equal: %q", inTx)
		}

		enc, err := tasks.Encode(second.Rec)
		if err != nil {
			t.Fatal(err)
		}
		mustTx(t, db, func(q store.Querier) error { return tasks.WriteEncoded(ctx, q, enc) })
		if third := read(); db.D.Name() != "sqlite" && third.Version == second.Version {
			t.Errorf("rewriting the same document kept the version %q", third.Version)
		}

		if _, err := tasks.LockVersion(ctx, db.Write(), "t1", "other"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("another company's task: %v, want not found", err)
		}
	})
}
