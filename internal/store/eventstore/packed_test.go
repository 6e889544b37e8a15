package eventstore_test

import (
	"fmt"
	"math"
	"math/rand"
	"reflect"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
	"github.com/trove-ml/trove/internal/store/storetest"
)

const singleValue = -1 << 31

// TestPackedPointsReadAsUnpacked keeps two series with the same points:
// one that the packer may pack (rolled up) and one it never packs. After
// each round of packing, replacing old points, adding new ones and
// packing again, every reader gives both series the same answers. On
// PostgreSQL the packed series' points really are in blocks; SQLite packs
// nothing and must give the same answers anyway.
func TestPackedPointsReadAsUnpacked(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ev := eventstore.Of(db)
		insertTasks(t, db, newTask("tpack", "c1", "packed"), newTask("tkeep", "c1", "kept"))
		packed := &eventstore.Series{Task: "tpack", Metric: "loss", Variant: "v", Worker: "w1", MaxIter: -1, RolledThrough: singleValue}
		kept := &eventstore.Series{Task: "tkeep", Metric: "loss", Variant: "v", Worker: "w1", MaxIter: -1, RolledThrough: singleValue}
		mustTx(t, db, func(q store.Querier) error {
			if err := ev.CreateSeries(ctx, q, packed); err != nil {
				return err
			}
			if err := ev.CreateSeries(ctx, q, kept); err != nil {
				return err
			}
			// a bucket of a coarse level for IterRange to count, so that it
			// goes on to read the series' range
			return ev.InsertRollups(ctx, q, []eventstore.Rollup{{Series: packed.ID, Level: 9, Bucket: 0, Cnt: 1}, {Series: kept.ID, Level: 9, Bucket: 0, Cnt: 1}})
		})
		rng := rand.New(rand.NewSource(7))
		// dense iterations, then sparse ones, a single value and a point
		// without iteration
		var iters []int64
		for i := int64(0); i < 2500; i++ {
			iters = append(iters, i)
		}
		for i := int64(2503); i < 4000; i += 3 {
			iters = append(iters, i)
		}
		point := func(it int64) eventstore.ScalarRow {
			r := eventstore.ScalarRow{Iter: it, Value: math.Round(rng.NormFloat64()*1000) / 8, TS: 1000 + it/10, WTS: 1005 + it/10}
			if rng.Intn(50) == 0 {
				r.Worker = ptr("w2")
			}
			if rng.Intn(70) == 0 {
				r.Extra = ptr(`{"k":1}`)
			}
			return r
		}
		write := func(rows []eventstore.ScalarRow, replace bool) {
			t.Helper()
			mustTx(t, db, func(q store.Querier) error {
				for _, sr := range []*eventstore.Series{packed, kept} {
					out := make([]eventstore.ScalarRow, len(rows))
					lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
					for i, r := range rows {
						r.Series = sr.ID
						out[i] = r
						lo, hi = min(lo, r.Iter), max(hi, r.Iter)
						sr.MaxIter = max(sr.MaxIter, r.Iter)
					}
					if replace {
						// as ingest does before replacing
						if _, err := ev.ScalarValues(ctx, q, sr.ID, lo, hi); err != nil {
							return err
						}
						if err := ev.UpsertScalars(ctx, q, out); err != nil {
							return err
						}
					} else if err := ev.InsertScalars(ctx, q, out); err != nil {
						return err
					}
				}
				// only the packed series is rolled up, so only it is packed
				if err := ev.TouchSeries(ctx, q, packed.ID, packed.MaxIter, packed.MaxIter, 1); err != nil {
					return err
				}
				return ev.TouchSeries(ctx, q, kept.ID, kept.MaxIter, singleValue, 1)
			})
		}
		first := []eventstore.ScalarRow{point(math.MinInt64), point(singleValue)}
		for _, it := range iters {
			first = append(first, point(it))
		}
		write(first, false)

		pack := func(wantSome bool) {
			t.Helper()
			n, err := ev.PackPoints(ctx, 1, math.MaxInt64)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case !db.IsPostgres() && n != 0:
				t.Fatalf("SQLite packed %d points", n)
			case db.IsPostgres() && wantSome && n == 0:
				t.Fatal("nothing packed")
			}
			if db.IsPostgres() {
				var blocks, inBlocks int
				if err := db.Read().QueryRowContext(ctx, "SELECT COUNT(*), COALESCE(SUM(n), 0) FROM event_scalar_blocks WHERE series = $1", kept.ID).Scan(&blocks, &inBlocks); err != nil {
					t.Fatal(err)
				}
				if blocks != 0 {
					t.Fatalf("the series never rolled up has %d blocks", blocks)
				}
			}
		}
		compare := func(round string) {
			t.Helper()
			a, b := readAll(t, db, packed), readAll(t, db, kept)
			for k, want := range b {
				if got := a[k]; !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: %s:\npacked %v\nkept   %v", round, k, got, want)
				}
			}
		}
		compare("unpacked")
		pack(true)
		compare("packed")

		// replace points in the packed range (within blocks, across two
		// blocks, in a sparse block's gap), then add new ones
		var again []eventstore.ScalarRow
		for _, it := range []int64{5, 1023, 1024, 1500, 2504, 2506, 3998} {
			again = append(again, point(it))
		}
		write(again, true)
		compare("replaced")
		var more []eventstore.ScalarRow
		for it := int64(4000); it < 5500; it++ {
			more = append(more, point(it))
		}
		write(more, false)
		compare("added")
		pack(true)
		compare("packed again")

		// deleting the task purges its packed points too
		mustTx(t, db, func(q store.Querier) error {
			_, err := ev.DeleteFor(ctx, q, []string{"tpack"})
			return err
		})
		purgeAll(t, db, packed.ID, 500)
		if db.IsPostgres() {
			if left := queryCount(t, db, "SELECT COUNT(*) FROM event_scalar_blocks"); left != 0 {
				t.Fatalf("blocks after the purge: %d", left)
			}
		}
	})
}

// readAll reads a series through every reader of points, keyed by the
// call; series ids are left out of the answers.
func readAll(t *testing.T, db *store.DB, sr *eventstore.Series) map[string]any {
	t.Helper()
	ev, q := eventstore.Of(db), db.Read()
	out := map[string]any{}
	put := func(key string, v any, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if pts, ok := v.([]eventstore.ScalarPoint); ok {
			for i := range pts {
				pts[i].Series = 0
			}
		}
		out[key] = v
	}
	for _, from := range []int64{-1, 0, 5, 1023, 1024, 2504, 2505, 3998, 4500, 9000} {
		for _, limit := range []int{1, 7, 2000} {
			for _, inclusive := range []bool{false, true} {
				for _, desc := range []bool{false, true} {
					v, err := ev.PointsByIter(ctx, q, sr.ID, from, inclusive, desc, limit)
					put(fmt.Sprintf("PointsByIter(%d,%v,%v,%d)", from, inclusive, desc, limit), v, err)
				}
			}
		}
	}
	for _, ts := range []int64{0, 1100, 1300} {
		v, err := ev.PointsByTime(ctx, q, sr.ID, ts, 1500, false, 300)
		put(fmt.Sprintf("PointsByTime(%d)", ts), v, err)
		v, err = ev.PointsByTime(ctx, q, sr.ID, ts, 1500, true, 300)
		put(fmt.Sprintf("PointsByTime(%d, same)", ts), v, err)
	}
	for _, it := range []int64{0, 1024, 2506, 3998, 5499, singleValue} {
		v, err := ev.PointsAt(ctx, q, []int64{sr.ID}, it)
		put(fmt.Sprintf("PointsAt(%d)", it), v, err)
	}
	v, err := ev.PointsWithoutIter(ctx, q, []int64{sr.ID})
	put("PointsWithoutIter", v, err)
	for _, positive := range []bool{false, true} {
		for _, limit := range []int{1, 100, 10000} {
			v, err := ev.LastValues(ctx, q, sr.ID, positive, limit)
			put(fmt.Sprintf("LastValues(%v,%d)", positive, limit), v, err)
		}
	}
	for _, minIter := range []int64{singleValue, 0, 1500, 3000} {
		r, err := ev.IterRange(ctx, q, sr.ID, 9, minIter, math.MaxInt64)
		put(fmt.Sprintf("IterRange(%d)", minIter), r, err)
		r, err = ev.TimeRange(ctx, q, sr.ID, minIter)
		put(fmt.Sprintf("TimeRange(%d)", minIter), r, err)
		for _, interval := range []int64{1, 7, 1000} {
			for _, byTime := range []bool{false, true} {
				h, err := ev.HistogramFromPoints(ctx, q, sr.ID, interval, byTime, minIter)
				put(fmt.Sprintf("HistogramFromPoints(%d,%v,%d)", interval, byTime, minIter), h, err)
			}
		}
	}
	for _, limit := range []int{1, 100, 1030, 100000} {
		n, err := ev.CountPoints(ctx, q, []int64{sr.ID}, limit)
		put(fmt.Sprintf("CountPoints(%d)", limit), n, err)
	}
	n, err := ev.CountPointsWithIter(ctx, q, []int64{sr.ID})
	put("CountPointsWithIter", n, err)
	return out
}

// TestPackingStartsAtASeriesFirstPoints: a series first written at
// iteration 1,000 is packed once 128 iterations past that are rolled up,
// not at once because its mark starts at the single-value iteration.
func TestPackingStartsAtASeriesFirstPoints(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ev := eventstore.Of(db)
		insertTasks(t, db, newTask("tfirst", "c1", "first"))
		sr := &eventstore.Series{Task: "tfirst", Metric: "m", Variant: "v", MaxIter: math.MinInt64, RolledThrough: singleValue}
		write := func(from, to int64, first bool) {
			t.Helper()
			mustTx(t, db, func(q store.Querier) error {
				if first {
					if err := ev.CreateSeriesMany(ctx, q, []*eventstore.Series{sr}); err != nil {
						return err
					}
				}
				var rows []eventstore.ScalarRow
				for it := from; it <= to; it++ {
					rows = append(rows, eventstore.ScalarRow{Series: sr.ID, Iter: it, Value: float64(it), TS: it, WTS: it})
				}
				if err := ev.InsertScalars(ctx, q, rows); err != nil {
					return err
				}
				below := int64(singleValue)
				if first {
					below = from - 1
				}
				return ev.TouchSeriesMany(ctx, q, []eventstore.SeriesTouch{{ID: sr.ID, MaxIter: to, RolledThrough: to, LastWTS: 1, Below: below}})
			})
		}
		pack := func() int {
			t.Helper()
			n, err := ev.PackPoints(ctx, 128, 0)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		write(1000, 1009, true)
		if n := pack(); n != 0 {
			t.Fatalf("packed %d of a new series' first 10 points", n)
		}
		write(1010, 1199, false)
		want := 200
		if !db.IsPostgres() {
			want = 0
		}
		if n := pack(); n != want {
			t.Fatalf("packed %d points, want %d", n, want)
		}
	})
}
