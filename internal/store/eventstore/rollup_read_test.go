package eventstore_test

import (
	"reflect"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// HistogramFromRollups groups the rollups of one level into wider buckets
// in Go, from rows read in key order: the result must be what the
// database's own GROUP BY over the floored keys gives, negative keys
// included.
func TestHistogramFromRollupsGroupsLikeSQL(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		const level = 2 // buckets of 4 iterations
		var rows []eventstore.Rollup
		for b := int64(-40); b <= 96; b += 4 {
			if b == 20 || b == 24 {
				continue // a gap: no points there
			}
			rows = append(rows, eventstore.Rollup{Series: 7, Level: level, Bucket: b, Cnt: 1 + (b+40)%3, Total: float64(b) * 0.5})
			if b >= 0 { // series 9 has no negative iterations
				rows = append(rows, eventstore.Rollup{Series: 9, Level: level, Bucket: b, Cnt: 2, Total: float64(b) * 0.25})
			}
		}
		// another series and another level of the same series stay out
		rows = append(rows, eventstore.Rollup{Series: 8, Level: level, Bucket: 0, Cnt: 5, Total: 100},
			eventstore.Rollup{Series: 7, Level: 4, Bucket: 0, Cnt: 5, Total: 100})
		mustTx(t, db, func(q store.Querier) error { return eventstore.Of(db).InsertRollups(ctx, q, rows) })
		for _, interval := range []int64{4, 8, 16, 48} {
			for _, c := range []struct {
				series      int64
				nonNegative bool
			}{{7, false}, {9, false}, {9, true}} {
				var want []eventstore.HistBucket
				floor := "(bucket - (((bucket % ?) + ?) % ?))"
				args := []any{interval, interval, interval, c.series, level}
				if c.nonNegative {
					floor, args = "(bucket - bucket % ?)", []any{interval, c.series, level}
				}
				rs, err := db.Read().QueryContext(ctx, "SELECT "+floor+" AS x, SUM(total), SUM(cnt) FROM event_scalar_rollups WHERE series = ? AND level = ? GROUP BY x ORDER BY x", args...)
				if err != nil {
					t.Fatal(err)
				}
				for rs.Next() {
					var b eventstore.HistBucket
					if err := rs.Scan(&b.X, &b.Sum, &b.Cnt); err != nil {
						t.Fatal(err)
					}
					want = append(want, b)
				}
				rs.Close()
				got, err := eventstore.Of(db).HistogramFromRollups(ctx, db.Read(), c.series, level, interval, c.nonNegative)
				if err != nil {
					t.Fatal(err)
				}
				if len(want) < 3 || !reflect.DeepEqual(got, want) {
					t.Errorf("series %d, interval %d, nonNegative %v:\n got %v\nwant %v", c.series, interval, c.nonNegative, got, want)
				}
			}
		}
	})
}
