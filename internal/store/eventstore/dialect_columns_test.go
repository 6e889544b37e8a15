package eventstore_test

import (
	"reflect"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// Points and rollups go to PostgreSQL as one array per column and to
// SQLite as multi-row statements in chunks: a batch larger than any chunk,
// over several series, inserted then partly replaced, reads back whole.
func TestThousandsOfPointsInOneBatch(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ev := eventstore.Of(db)
		const base = int64(1_700_000_000_000)
		const perSeries = 700
		series := make([]*eventstore.Series, 3)
		var rows []eventstore.ScalarRow
		mustTx(t, db, func(q store.Querier) error {
			for k := range series {
				series[k] = &eventstore.Series{Task: "t1", Metric: "loss", Variant: string(rune('a' + k)), Worker: "w1", MaxIter: -1, RolledThrough: -1, TS0: base}
				if err := ev.CreateSeries(ctx, q, series[k]); err != nil {
					return err
				}
				for it := int64(0); it < perSeries; it++ {
					rows = append(rows, eventstore.ScalarRow{Series: series[k].ID, Iter: it, Value: float64(it) / 4, TS: base + it*10, WTS: base + it*10 + 3, TS0: base})
				}
			}
			// a point with extras among them
			rows[5].Worker, rows[5].Extra = ptr("w2"), ptr(`{"k":1}`)
			return ev.InsertScalars(ctx, q, rows)
		})
		// replace the second half of every series (and the extras' point)
		var again []eventstore.ScalarRow
		for i, r := range rows {
			if r.Iter >= perSeries/2 || i == 5 {
				r.Value, r.Worker, r.Extra = -r.Value, nil, nil
				again = append(again, r)
			}
		}
		mustTx(t, db, func(q store.Querier) error { return ev.UpsertScalars(ctx, q, again) })
		for k, sr := range series {
			pts, err := ev.PointsByIter(ctx, db.Read(), sr.ID, 0, true, false, 2*perSeries)
			if err != nil {
				t.Fatal(err)
			}
			if len(pts) != perSeries {
				t.Fatalf("series %d: %d points, want %d", k, len(pts), perSeries)
			}
			for _, p := range pts {
				want := eventstore.ScalarPoint{Series: sr.ID, Iter: p.Iter, Value: float64(p.Iter) / 4, TS: base + p.Iter*10, WTS: base + p.Iter*10 + 3}
				if p.Iter >= perSeries/2 || (k == 0 && p.Iter == 5) {
					want.Value = -want.Value
				}
				if !reflect.DeepEqual(p, want) {
					t.Fatalf("series %d: got %+v, want %+v", k, p, want)
				}
			}
		}
	})
}

// New rollup buckets are inserted, existing ones added to, in batches
// larger than any chunk.
func TestThousandsOfRollupsInOneBatch(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ev := eventstore.Of(db)
		sr := &eventstore.Series{Task: "t1", Metric: "loss", Variant: "v", Worker: "w1", MaxIter: -1, RolledThrough: -1}
		const buckets = 1100
		var fresh, more []eventstore.Rollup
		for b := int64(0); b < buckets; b++ {
			fresh = append(fresh, eventstore.Rollup{Level: 5, Bucket: b * 32, Cnt: 32, Total: float64(b)})
			more = append(more, eventstore.Rollup{Level: 5, Bucket: b * 32, Cnt: 1, Total: 0.5})
		}
		mustTx(t, db, func(q store.Querier) error {
			if err := ev.CreateSeries(ctx, q, sr); err != nil {
				return err
			}
			for i := range fresh {
				fresh[i].Series, more[i].Series = sr.ID, sr.ID
			}
			if err := ev.InsertRollups(ctx, q, fresh); err != nil {
				return err
			}
			return ev.AddRollups(ctx, q, more)
		})
		got, err := ev.HistogramFromRollups(ctx, db.Read(), sr.ID, 5, 32, true)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != buckets {
			t.Fatalf("%d buckets, want %d", len(got), buckets)
		}
		for b, h := range got {
			if want := (eventstore.HistBucket{X: int64(b) * 32, Sum: float64(b) + 0.5, Cnt: 33}); h != want {
				t.Fatalf("bucket %d: got %+v, want %+v", b, h, want)
			}
		}
	})
}
