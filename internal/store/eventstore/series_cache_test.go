package eventstore_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// TestSeriesCacheFollowsEveryChange: SeriesOf inside a transaction (the
// ingest writer's read, answered by the series cache on SQLite) gives
// exactly what the database holds, through random writer batches that
// create and advance series, the rollup job's marks, transactions that
// roll back, task deletes and the purge. On SQLite the cache is also
// shown to answer.
func TestSeriesCacheFollowsEveryChange(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		es := eventstore.Of(db)
		tasks := []string{"ta", "tb", "tc"}
		metrics := []string{"loss", "acc"}
		rng := rand.New(rand.NewPCG(7, 11))
		errRollback := errors.New("rolled back on purpose")
		iter := int64(0)

		// truth reads the series from the database, outside any
		// transaction (no cache)
		truth := func(task string) map[[2]string]eventstore.Series {
			t.Helper()
			all, err := es.TaskSeries(ctx, db.Read(), task)
			if err != nil {
				t.Fatal(err)
			}
			out := map[[2]string]eventstore.Series{}
			for _, sr := range all {
				out[[2]string{sr.Metric, sr.Variant}] = sr
			}
			return out
		}
		cached := func(task string) map[[2]string]eventstore.Series {
			t.Helper()
			out := map[[2]string]eventstore.Series{}
			mustTx(t, db, func(q store.Querier) error {
				got, err := es.SeriesOf(ctx, q, task, metrics)
				for k, sr := range got {
					out[k] = *sr
				}
				return err
			})
			return out
		}
		// batch is one writer transaction: it reads the series of a task,
		// creates missing variants, advances some, and commits or not
		batch := func(task string, commit bool) {
			err := db.Tx(ctx, func(q store.Querier) error {
				known, err := es.SeriesOf(ctx, q, task, metrics)
				if err != nil {
					return err
				}
				var created []*eventstore.Series
				for _, m := range metrics {
					v := fmt.Sprintf("v%d", rng.IntN(4))
					if known[[2]string{m, v}] == nil {
						sr := &eventstore.Series{Task: task, Metric: m, Variant: v, Worker: "w", MaxIter: -1, RolledThrough: -1, LastWTS: iter}
						created = append(created, sr)
						known[[2]string{m, v}] = sr
					}
				}
				if err := es.CreateSeriesMany(ctx, q, created); err != nil {
					return err
				}
				var touches []eventstore.SeriesTouch
				for _, sr := range known {
					if rng.IntN(2) == 0 {
						iter++
						touches = append(touches, eventstore.SeriesTouch{ID: sr.ID, MaxIter: iter, RolledThrough: sr.RolledThrough, LastWTS: iter})
						// the caller's copy may change freely
						sr.MaxIter, sr.Worker = iter, "scribbled"
					}
				}
				if err := es.TouchSeriesMany(ctx, q, touches); err != nil {
					return err
				}
				if !commit {
					return errRollback
				}
				return nil
			})
			if err != nil && !errors.Is(err, errRollback) {
				t.Fatal(err)
			}
		}
		roll := func(task string) {
			all := truth(task)
			if len(all) == 0 {
				return
			}
			keys := slices.SortedFunc(func(yield func([2]string) bool) {
				for k := range all {
					if !yield(k) {
						return
					}
				}
			}, func(a, b [2]string) int { return cmpKey(a, b) })
			sr := all[keys[rng.IntN(len(keys))]]
			mustTx(t, db, func(q store.Querier) error { return es.SetRolledThrough(ctx, q, sr.ID, sr.MaxIter) })
		}
		purge := func() {
			ids, err := es.SeriesToPurge(ctx, db.Read(), 100)
			if err != nil {
				t.Fatal(err)
			}
			for _, id := range ids {
				for done := false; !done; {
					mustTx(t, db, func(q store.Querier) error {
						var err error
						done, err = es.PurgeSeries(ctx, q, id, 1000)
						return err
					})
				}
			}
		}
		for step := 0; step < 300; step++ {
			task := tasks[rng.IntN(len(tasks))]
			switch op := rng.IntN(10); {
			case op < 5:
				batch(task, true)
			case op < 6:
				batch(task, false)
			case op < 8:
				roll(task)
			case op < 9:
				mustTx(t, db, func(q store.Querier) error {
					_, err := es.DeleteFor(ctx, q, []string{task})
					return err
				})
			default:
				purge()
			}
			for _, tk := range tasks {
				want, got := truth(tk), cached(tk)
				if len(want) != len(got) {
					t.Fatalf("step %d, task %s: %d series read, %d stored:\n%v\n%v", step, tk, len(got), len(want), got, want)
				}
				for k, w := range want {
					if got[k] != w {
						t.Fatalf("step %d, task %s, %v: read %+v, stored %+v", step, tk, k, got[k], w)
					}
				}
			}
		}
		if db.IsPostgres() {
			if n := eventstore.SeriesCacheLen(db); n != -1 {
				t.Fatalf("a series cache on PostgreSQL: %d", n)
			}
		} else if n := eventstore.SeriesCacheLen(db); n <= 0 {
			t.Fatalf("the series cache holds %d series after the run", n)
		}
	})
}

func cmpKey(a, b [2]string) int {
	if a[0] != b[0] {
		if a[0] < b[0] {
			return -1
		}
		return 1
	}
	if a[1] < b[1] {
		return -1
	}
	if a[1] > b[1] {
		return 1
	}
	return 0
}

// TestSeriesCacheIgnoresLateChanges: a change committed between a writer
// transaction's commit and its update of the series cache (the rollup
// job's mark, run here from a commit hook placed first) wins: the writer's
// older view is not cached.
func TestSeriesCacheIgnoresLateChanges(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		es := eventstore.Of(db)
		var id int64
		mustTx(t, db, func(q store.Querier) error {
			sr := &eventstore.Series{Task: "t1", Metric: "loss", Variant: "v", Worker: "w", MaxIter: 10, RolledThrough: -1}
			if err := es.CreateSeriesMany(ctx, q, []*eventstore.Series{sr}); err != nil {
				return err
			}
			id = sr.ID
			return nil
		})
		read := func() eventstore.Series {
			var out eventstore.Series
			mustTx(t, db, func(q store.Querier) error {
				got, err := es.SeriesOf(ctx, q, "t1", []string{"loss"})
				if err == nil {
					out = *got[[2]string{"loss", "v"}]
				}
				return err
			})
			return out
		}
		read() // cached
		// the writer advances the series; the rollup job sets its mark
		// after the commit, before the writer's update reaches the cache
		mustTx(t, db, func(q store.Querier) error {
			store.AfterCommit(q, func() {
				mustTx(t, db, func(q store.Querier) error { return es.SetRolledThrough(ctx, q, id, 20) })
			})
			if _, err := es.SeriesOf(ctx, q, "t1", []string{"loss"}); err != nil {
				return err
			}
			return es.TouchSeriesMany(ctx, q, []eventstore.SeriesTouch{{ID: id, MaxIter: 20, RolledThrough: -1, LastWTS: 5}})
		})
		if got := read(); got.MaxIter != 20 || got.RolledThrough != 20 || got.LastWTS != 5 {
			t.Fatalf("after the late mark: %+v, want max_iter 20, rolled_through 20", got)
		}
		// and a first read whose rows change before they are cached
		mustTx(t, db, func(q store.Querier) error { _, err := es.DeleteFor(ctx, q, []string{"t1"}); return err })
		mustTx(t, db, func(q store.Querier) error {
			sr := &eventstore.Series{Task: "t2", Metric: "m", Variant: "v", Worker: "w", MaxIter: 1, RolledThrough: -1}
			return es.CreateSeriesMany(ctx, q, []*eventstore.Series{sr})
		})
		mustTx(t, db, func(q store.Querier) error {
			store.AfterCommit(q, func() {
				mustTx(t, db, func(q store.Querier) error { _, err := es.DeleteFor(ctx, q, []string{"t2"}); return err })
			})
			_, err := es.SeriesOf(ctx, q, "t2", []string{"m"})
			return err
		})
		mustTx(t, db, func(q store.Querier) error {
			got, err := es.SeriesOf(ctx, q, "t2", []string{"m"})
			if err == nil && len(got) != 0 {
				t.Errorf("series of a deleted task read: %+v", got)
			}
			return err
		})
	})
}
