package eventstore_test

import (
	"reflect"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// The stored form of scalar points (scalars.go): times as offsets,
// the rare rest in event_scalar_extras. What is read back is the point
// that was written.
func TestScalarPointsRoundTrip(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ev := eventstore.Of(db)
		const base = int64(1_700_000_000_000)
		sr := &eventstore.Series{Task: "t1", Metric: "loss", Variant: "train", Worker: "w1", MaxIter: -1, RolledThrough: -1, TS0: base}
		far := base + 90*24*3600*1000 // a write time 90 days after: past 32 bits of ms
		written := []eventstore.ScalarRow{
			{Series: 0, Iter: 0, Value: 1.5, TS: base, WTS: base + 120},
			{Series: 0, Iter: 1, Value: 1.25, TS: base - 5000, WTS: far, Worker: ptr("w2"), Extra: ptr(`{"note":"x"}`)},
			{Series: 0, Iter: 2, Value: 0.5, TS: base + 3_600_000, WTS: base + 3_600_000},
		}
		mustTx(t, db, func(q store.Querier) error {
			if err := ev.CreateSeries(ctx, q, sr); err != nil {
				return err
			}
			for i := range written {
				written[i].Series, written[i].TS0 = sr.ID, sr.TS0
			}
			return ev.InsertScalars(ctx, q, written)
		})
		pts, err := ev.PointsByIter(ctx, db.Read(), sr.ID, 0, true, false, 10)
		if err != nil {
			t.Fatal(err)
		}
		want := []eventstore.ScalarPoint{
			{Series: sr.ID, Iter: 0, Value: 1.5, TS: base, WTS: base + 120},
			{Series: sr.ID, Iter: 1, Value: 1.25, TS: base - 5000, WTS: far, Worker: ptr("w2"), Extra: ptr(`{"note":"x"}`)},
			{Series: sr.ID, Iter: 2, Value: 0.5, TS: base + 3_600_000, WTS: base + 3_600_000},
		}
		if !reflect.DeepEqual(pts, want) {
			t.Fatalf("points\n got %+v\nwant %+v", pts, want)
		}
		// by time: the point sent 5 s before the base comes first
		byTime, err := ev.PointsByTime(ctx, db.Read(), sr.ID, base-5000, -1<<63, true, 10)
		if err != nil || len(byTime) != 3 || byTime[0].Iter != 1 || byTime[2].Iter != 2 {
			t.Fatalf("points by time %+v, %v", byTime, err)
		}
		later, err := ev.PointsByTime(ctx, db.Read(), sr.ID, base, 0, false, 10)
		if err != nil || len(later) != 1 || later[0].Iter != 2 {
			t.Fatalf("points after the base time %+v, %v", later, err)
		}
		r, err := ev.TimeRange(ctx, db.Read(), sr.ID, -1<<31)
		if err != nil || r != (eventstore.SeriesRange{Count: 3, Min: base - 5000, Max: base + 3_600_000}) {
			t.Fatalf("time range %+v, %v", r, err)
		}
		hist, err := ev.HistogramFromPoints(ctx, db.Read(), sr.ID, 3_600_000, true, -1<<31)
		if err != nil || len(hist) != 2 || hist[1].X != (base+3_600_000)-(base+3_600_000)%3_600_000 {
			t.Fatalf("histogram by time %+v, %v", hist, err)
		}
		at, err := ev.PointsAt(ctx, db.Read(), []int64{sr.ID}, 1)
		if err != nil || len(at) != 1 || !reflect.DeepEqual(at[0], want[1]) {
			t.Fatalf("points at 1: %+v, %v", at, err)
		}
		// A replacement without extras drops the stored extras.
		mustTx(t, db, func(q store.Querier) error {
			return ev.UpsertScalars(ctx, q, []eventstore.ScalarRow{{Series: sr.ID, Iter: 1, Value: 2, TS: base + 10, WTS: base + 20, TS0: base}})
		})
		pts, err = ev.PointsByIter(ctx, db.Read(), sr.ID, 1, true, false, 1)
		if err != nil || !reflect.DeepEqual(pts, []eventstore.ScalarPoint{{Series: sr.ID, Iter: 1, Value: 2, TS: base + 10, WTS: base + 20}}) {
			t.Fatalf("replaced point %+v, %v", pts, err)
		}
	})
}
