package store_test

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// Migration 0095 moves the points of the wide table into the narrow one
// and its extras table, times and extras unchanged.
func TestMigrationMovesScalarPoints(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			dsn := filepath.Join(t.TempDir(), "trove.db")
			if backend == "postgres" {
				dsn = storetest.NewPostgresDB(t)
			}
			restore := store.SetMigrationsThrough(94)
			old, err := store.Open(context.Background(), dsn, "")
			restore()
			if err != nil {
				t.Fatal(err)
			}
			const base = int64(1_700_000_000_000)
			for _, stmt := range []string{
				"INSERT INTO event_series (id, task, metric, variant, worker, max_iter) VALUES (7, 't1', 'loss', 'train', 'w1', 2)",
				"INSERT INTO event_scalars (series, iter, value, ts, wts, worker, extra) VALUES " +
					"(7, 0, 1.5, 1700000000000, 1700000000100, NULL, NULL), " +
					"(7, 1, 1.25, 1699999999000, 1707776000000, 'w2', '{\"note\":\"x\"}'), " +
					"(7, 2, 0.5, 1700003600000, 1700003600000, NULL, NULL)",
			} {
				if _, err := old.Write().ExecContext(ctx, stmt); err != nil {
					t.Fatal(err)
				}
			}
			old.Close()
			db, err := store.Open(context.Background(), dsn, "")
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			var got map[[2]string]*eventstore.Series
			mustTx(t, db, func(q store.Querier) error {
				got, err = eventstore.Of(db).SeriesOf(ctx, q, "t1", []string{"loss"})
				return err
			})
			if s := got[[2]string{"loss", "train"}]; s == nil || s.TS0 != base-1000 {
				t.Fatalf("series after the migration: %+v", s)
			}
			pts, err := eventstore.Of(db).PointsByIter(ctx, db.Read(), 7, 0, true, false, 10)
			if err != nil {
				t.Fatal(err)
			}
			want := []eventstore.ScalarPoint{
				{Series: 7, Iter: 0, Value: 1.5, TS: base, WTS: base + 100},
				{Series: 7, Iter: 1, Value: 1.25, TS: base - 1000, WTS: 1707776000000, Worker: ptr("w2"), Extra: ptr(`{"note":"x"}`)},
				{Series: 7, Iter: 2, Value: 0.5, TS: base + 3_600_000, WTS: base + 3_600_000},
			}
			if !reflect.DeepEqual(pts, want) {
				t.Fatalf("points\n got %+v\nwant %+v", pts, want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }
