package store_test

import (
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"sort"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// Many tasks written by one statement (WriteEncodedVersions) keep the name
// tables exact, whatever each row changed: its names, only its values, its
// project, nothing, or a row without fingerprints (from before migration
// 0096). Each returned version is the row's version as stored, and the
// rows hold what was encoded.
func TestWriteEncodedVersionsKeepsNameTablesExact(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		r := rand.New(rand.NewSource(15))
		projects := []string{"", "pA", "pB"}
		var all []*store.Task
		for i := 0; i < 60; i++ {
			tk := newTask(fmt.Sprintf("w%03d", i), []string{"c1", "c2"}[i%2], "n")
			tk.Project = projects[r.Intn(len(projects))]
			randomNames(r, tk)
			all = append(all, tk)
		}
		insertTasks(t, db, all...)
		checkNameTables(t, db, "insert")
		tasks := db.Tasks()
		for step := 0; step < 25; step++ {
			// a random set of rows, in random order, 1 to 60 of them
			picked := r.Perm(len(all))[:1+r.Intn(len(all))]
			var encs []*store.EncodedRecord
			var unsigned []string
			for _, i := range picked {
				tk := all[i]
				switch r.Intn(5) {
				case 0:
					randomNames(r, tk)
				case 1:
					for _, vs := range tk.LastMetrics {
						for _, v := range vs {
							v.Count++ // values only
						}
					}
				case 2:
					tk.Project = projects[r.Intn(len(projects))]
				case 3:
					unsigned = append(unsigned, tk.ID)
					randomNames(r, tk)
				}
				enc, err := tasks.Encode(tk)
				if err != nil {
					t.Fatal(err)
				}
				encs = append(encs, enc)
			}
			mustTx(t, db, func(q store.Querier) error {
				for _, id := range unsigned {
					if _, err := q.ExecContext(ctx, "UPDATE tasks SET params_sig = NULL, metrics_sig = NULL WHERE id = ?", id); err != nil {
						return err
					}
				}
				versions, err := tasks.WriteEncodedVersions(ctx, q, encs)
				if err != nil {
					return err
				}
				if len(versions) != len(encs) {
					t.Fatalf("step %d: %d versions for %d rows", step, len(versions), len(encs))
				}
				for i, e := range encs {
					company := all[picked[i]].Company
					v, err := tasks.LockVersion(ctx, q, e.ID, company)
					if err != nil {
						return err
					}
					if v != versions[i] {
						t.Fatalf("step %d: row %s: version %q returned, %q stored", step, e.ID, versions[i], v)
					}
				}
				return nil
			})
			checkNameTables(t, db, fmt.Sprintf("step %d (%d rows)", step, len(encs)))
		}
		stored, err := tasks.Select(ctx, db.Read(), "1 = 1")
		if err != nil {
			t.Fatal(err)
		}
		sort.Slice(stored, func(i, j int) bool { return stored[i].ID < stored[j].ID })
		for _, got := range stored {
			for _, want := range all {
				if want.ID == got.ID && (got.Project != want.Project || !reflect.DeepEqual(got.LastMetrics, want.LastMetrics) || !reflect.DeepEqual(got.Hyperparams, want.Hyperparams)) {
					t.Fatalf("task %s: stored %s %v, written %s %v", got.ID, got.Project, got.LastMetrics, want.Project, want.LastMetrics)
				}
			}
		}
	})
}

// A record that is not stored fails the statement with ErrNotFound.
func TestWriteEncodedVersionsMissingRow(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		a, b := newTask("a", "c1", "n"), newTask("b", "c1", "n")
		insertTasks(t, db, a)
		tasks := db.Tasks()
		ea, _ := tasks.Encode(a)
		eb, _ := tasks.Encode(b)
		err := db.Tx(ctx, func(q store.Querier) error {
			_, err := tasks.WriteEncodedVersions(ctx, q, []*store.EncodedRecord{ea, eb})
			return err
		})
		if !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a missing row: %v", err)
		}
	})
}
