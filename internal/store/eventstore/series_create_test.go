package eventstore_test

import (
	"fmt"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// Series created many at once (in chunks of several sizes) each get their
// own id, and read back with their fields; creating none is a no-op.
func TestCreateSeriesMany(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ev := eventstore.Of(db)
		var list []*eventstore.Series
		for i := range 603 {
			list = append(list, &eventstore.Series{Task: fmt.Sprintf("t%d", i%3), Metric: fmt.Sprintf("m%d", i%7), Variant: fmt.Sprintf("v%d", i),
				Worker: "w", MaxIter: int64(i), LastWTS: 100, RolledThrough: -1, TS0: int64(i) * 10, ModelEvent: i%2 == 1})
		}
		mustTx(t, db, func(q store.Querier) error {
			if err := ev.CreateSeriesMany(ctx, q, nil); err != nil {
				return err
			}
			return ev.CreateSeriesMany(ctx, q, list)
		})
		seen := map[int64]bool{}
		for _, sr := range list {
			if sr.ID == 0 || seen[sr.ID] {
				t.Fatalf("series %s/%s/%s: id %d", sr.Task, sr.Metric, sr.Variant, sr.ID)
			}
			seen[sr.ID] = true
		}
		for _, want := range []*eventstore.Series{list[0], list[301], list[602]} {
			got, err := ev.SeriesOf(ctx, db.Read(), want.Task, []string{want.Metric})
			if err != nil {
				t.Fatal(err)
			}
			sr := got[[2]string{want.Metric, want.Variant}]
			if sr == nil || sr.ID != want.ID || sr.MaxIter != want.MaxIter || sr.TS0 != want.TS0 || sr.ModelEvent != want.ModelEvent || sr.Worker != "w" {
				t.Fatalf("read back %+v, want %+v", sr, want)
			}
		}
	})
}
