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

// TestStagedPointsReadAsDirect keeps two series with the same points: one
// written a few points at a time (staged where the store stages small
// writes) and one written at once (never staged). After each step (the
// writes, replacing points, each move of staged points, adding more),
// every reader gives both the same answers. On SQLite the first series'
// points really are staged; PostgreSQL stages nothing and must give the
// same answers anyway.
func TestStagedPointsReadAsDirect(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ev := eventstore.Of(db)
		insertTasks(t, db, newTask("tsmall", "c1", "small writes"), newTask("tbig", "c1", "big writes"))
		small := &eventstore.Series{Task: "tsmall", Metric: "loss", Variant: "v", Worker: "w1", MaxIter: -1, RolledThrough: singleValue}
		big := &eventstore.Series{Task: "tbig", Metric: "loss", Variant: "v", Worker: "w1", MaxIter: -1, RolledThrough: singleValue}
		mustTx(t, db, func(q store.Querier) error {
			for _, sr := range []*eventstore.Series{small, big} {
				if err := ev.CreateSeries(ctx, q, sr); err != nil {
					return err
				}
			}
			// a coarse bucket for IterRange to count
			return ev.InsertRollups(ctx, q, []eventstore.Rollup{{Series: small.ID, Level: 9, Bucket: 0, Cnt: 1}, {Series: big.ID, Level: 9, Bucket: 0, Cnt: 1}})
		})
		rng := rand.New(rand.NewSource(11))
		point := func(it int64) eventstore.ScalarRow {
			r := eventstore.ScalarRow{Iter: it, Value: math.Round(rng.NormFloat64()*1000) / 8, TS: 1000 + it/10, WTS: 1005 + it/10}
			if rng.Intn(40) == 0 {
				r.Worker = ptr("w2")
			}
			return r
		}
		var rows []eventstore.ScalarRow
		rows = append(rows, point(math.MinInt64), point(singleValue))
		for it := int64(0); it < 1200; it++ {
			rows = append(rows, point(it))
		}
		for it := int64(1203); it < 4000; it += 3 {
			rows = append(rows, point(it))
		}
		of := func(sr *eventstore.Series, rows []eventstore.ScalarRow) []eventstore.ScalarRow {
			out := make([]eventstore.ScalarRow, len(rows))
			for i, r := range rows {
				r.Series = sr.ID
				out[i] = r
				sr.MaxIter = max(sr.MaxIter, r.Iter)
			}
			return out
		}
		// insert writes rows to big at once and to small in writes of
		// three points, the first of them in the same write as big's (a
		// short run beside a long one)
		insert := func(rows []eventstore.ScalarRow) {
			t.Helper()
			mustTx(t, db, func(q store.Querier) error {
				if err := ev.InsertScalars(ctx, q, append(of(small, rows[:3]), of(big, rows)...)); err != nil {
					return err
				}
				for i := 3; i < len(rows); i += 3 {
					if err := ev.InsertScalars(ctx, q, of(small, rows[i:min(i+3, len(rows))])); err != nil {
						return err
					}
				}
				return nil
			})
		}
		staged := func() int {
			t.Helper()
			if db.IsPostgres() {
				return 0
			}
			if other := queryCount(t, db, "SELECT COUNT(*) FROM event_scalars_staged WHERE series <> ?", small.ID); other != 0 {
				t.Fatalf("the big writes staged %d points", other)
			}
			return queryCount(t, db, "SELECT COUNT(*) FROM event_scalars_staged WHERE series = ?", small.ID)
		}
		compare := func(step string) {
			t.Helper()
			a, b := readStaged(t, db, small), readStaged(t, db, big)
			for k, want := range b {
				if got := a[k]; !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: %s:\nsmall writes %v\nbig writes   %v", step, k, got, want)
				}
			}
		}
		insert(rows)
		if n := staged(); !db.IsPostgres() && n != len(rows) {
			t.Fatalf("SQLite staged %d of the %d points written 3 at a time", n, len(rows))
		}
		compare("written")

		// replacing staged points, as ingest does
		mustTx(t, db, func(q store.Querier) error {
			again := []eventstore.ScalarRow{point(5), point(600), point(1203), point(3997)}
			for _, sr := range []*eventstore.Series{small, big} {
				if _, err := ev.ScalarValues(ctx, q, sr.ID, 5, 3997); err != nil {
					return err
				}
				if err := ev.UpsertScalars(ctx, q, of(sr, again)); err != nil {
					return err
				}
			}
			return nil
		})
		if n := staged(); !db.IsPostgres() && n != len(rows)-3 {
			t.Fatalf("after replacing 3 staged points (3997 was never written), %d remain staged", n)
		}
		compare("replaced")

		// moving in parts: each move keeps every answer
		before := staged()
		next, moves := int64(0), 0
		for {
			n, moved, err := ev.MoveStaged(ctx, next, 3)
			if err != nil {
				t.Fatal(err)
			}
			moves++
			if db.IsPostgres() && moved != 0 {
				t.Fatalf("PostgreSQL moved %d staged points", moved)
			}
			compare(fmt.Sprintf("move %d", moves))
			next = n
			if next == 0 {
				break
			}
		}
		if left := staged(); left != 0 || (!db.IsPostgres() && before == 0) {
			t.Fatalf("staged points: %d before moving, %d after", before, left)
		}

		// more writes after the moves
		var more []eventstore.ScalarRow
		for it := int64(4000); it < 4100; it++ {
			more = append(more, point(it))
		}
		insert(more)
		compare("added")

		// deleting the task counts and purges its staged points too
		var deleted [2]int64
		mustTx(t, db, func(q store.Querier) error {
			var err error
			if deleted[0], err = ev.DeleteFor(ctx, q, []string{"tsmall"}); err != nil {
				return err
			}
			deleted[1], err = ev.DeleteFor(ctx, q, []string{"tbig"})
			return err
		})
		if deleted[0] != deleted[1] {
			t.Fatalf("deleting counted %d points of small writes, %d of big ones", deleted[0], deleted[1])
		}
		purgeAll(t, db, small.ID, 500)
		if !db.IsPostgres() {
			if left := queryCount(t, db, "SELECT COUNT(*) FROM event_scalars_staged"); left != 0 {
				t.Fatalf("staged points after the purge: %d", left)
			}
		}
	})
}

// readStaged is readAll and the readers of the points past the rollups.
func readStaged(t *testing.T, db *store.DB, sr *eventstore.Series) map[string]any {
	t.Helper()
	out := readAll(t, db, sr)
	ev, q := eventstore.Of(db), db.Read()
	for _, after := range []int64{singleValue, 0, 1100, 3990} {
		for _, limit := range []int{1, 50, 5000} {
			its, vals, err := ev.IterValues(ctx, q, sr.ID, after, limit)
			if err != nil {
				t.Fatal(err)
			}
			out[fmt.Sprintf("IterValues(%d,%d)", after, limit)] = [2]any{its, vals}
		}
		for _, interval := range []int64{1, 64} {
			h, err := ev.HistogramTail(ctx, q, sr.ID, after, interval)
			if err != nil {
				t.Fatal(err)
			}
			out[fmt.Sprintf("HistogramTail(%d,%d)", after, interval)] = h
		}
	}
	mustTx(t, db, func(q store.Querier) error {
		v, err := ev.ScalarValues(ctx, q, sr.ID, 0, 5000)
		out["ScalarValues"] = v
		return err
	})
	return out
}

// TestMoveStagedGoesRoundInParts: with 30 series staged, a round of
// parts=3 moves takes about a third of the series each time, in series
// order, and ends (next 0) with nothing staged; a series staged again
// behind the cursor waits for the next round.
func TestMoveStagedGoesRoundInParts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ev := eventstore.Of(db)
		var series []*eventstore.Series
		mustTx(t, db, func(q store.Querier) error {
			for i := range 30 {
				sr := &eventstore.Series{Task: "tround", Metric: "m", Variant: fmt.Sprint(i), Worker: "w1", MaxIter: 1, RolledThrough: singleValue}
				if err := ev.CreateSeries(ctx, q, sr); err != nil {
					return err
				}
				series = append(series, sr)
				if err := ev.InsertScalars(ctx, q, []eventstore.ScalarRow{{Series: sr.ID, Iter: 0, Value: 1, TS: 5, WTS: 5}, {Series: sr.ID, Iter: 1, Value: 2, TS: 6, WTS: 6}}); err != nil {
					return err
				}
			}
			return nil
		})
		staged := func() int {
			t.Helper()
			return queryCount(t, db, "SELECT COUNT(*) FROM event_scalars_staged")
		}
		if db.IsPostgres() {
			next, moved, err := ev.MoveStaged(ctx, 0, 3)
			if next != 0 || moved != 0 || err != nil {
				t.Fatalf("PostgreSQL moved %d points (next %d, %v)", moved, next, err)
			}
			return
		}
		if n := staged(); n != 60 {
			t.Fatalf("staged %d points, want 60", n)
		}
		var got []int
		next := int64(0)
		for {
			n, moved, err := ev.MoveStaged(ctx, next, 3)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, moved)
			if n != 0 && n <= next {
				t.Fatalf("the cursor went from %d to %d", next, n)
			}
			if len(got) == 1 {
				// a series staged again behind the cursor waits for the
				// next round
				mustTx(t, db, func(q store.Querier) error {
					return ev.InsertScalars(ctx, q, []eventstore.ScalarRow{{Series: series[0].ID, Iter: 2, Value: 3, TS: 7, WTS: 7}})
				})
			}
			next = n
			if next == 0 {
				break
			}
		}
		if !reflect.DeepEqual(got, []int{20, 20, 20}) || staged() != 1 {
			t.Fatalf("moves took %v points, %d left staged; want [20 20 20] and the one staged behind the cursor", got, staged())
		}
		if _, moved, err := ev.MoveStaged(ctx, 0, 3); err != nil || moved != 1 || staged() != 0 {
			t.Fatalf("the next round moved %d (%v), %d left", moved, err, staged())
		}
	})
}

// TestMoveStagedReplacesAConflictingPoint: should a key ever be in both
// tables, the move keeps the staged point (the later write) instead of
// failing, so the series' later moves go on. SQLite only: PostgreSQL has
// no staged table (TestMoveStagedGoesRoundInParts checks it moves nothing).
func TestMoveStagedReplacesAConflictingPoint(t *testing.T) {
	db := storetest.Open(t, "sqlite")
	ev := eventstore.Of(db)
	sr := &eventstore.Series{Task: "tconflict", Metric: "m", Variant: "v", Worker: "w1", MaxIter: 1, RolledThrough: singleValue}
	mustTx(t, db, func(q store.Querier) error {
		if err := ev.CreateSeries(ctx, q, sr); err != nil {
			return err
		}
		if err := ev.InsertScalars(ctx, q, []eventstore.ScalarRow{{Series: sr.ID, Iter: 0, Value: 1, TS: 5, WTS: 5}, {Series: sr.ID, Iter: 1, Value: 2, TS: 6, WTS: 6}}); err != nil {
			return err
		}
		// the broken state, written behind the store's back
		_, err := q.ExecContext(ctx, "INSERT INTO event_scalars (series, iter, value, dts, dwts) VALUES (?, 1, 99, 1, 1)", sr.ID)
		return err
	})
	if _, moved, err := ev.MoveStaged(ctx, 0, 1); err != nil || moved != 2 {
		t.Fatalf("moved %d points: %v", moved, err)
	}
	if staged := queryCount(t, db, "SELECT COUNT(*) FROM event_scalars_staged"); staged != 0 {
		t.Fatalf("%d points left staged", staged)
	}
	its, vals, err := ev.IterValues(ctx, db.Read(), sr.ID, -1, 10)
	if err != nil || !reflect.DeepEqual(its, []int64{0, 1}) || !reflect.DeepEqual(vals, []float64{1, 2}) {
		t.Fatalf("after the move: iterations %v values %v (%v); want [0 1] [1 2]", its, vals, err)
	}
}
