package eventstore_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// TouchSeriesMany updates every series it is given, in statements of up
// to 512 rows; on SQLite each row is found by its primary key, whatever
// the statement's size (a 512-row statement was once planned as a scan
// of all series).
func TestTouchSeriesUsesThePrimaryKey(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		es := eventstore.Of(db)
		var list []*eventstore.Series
		for i := 0; i < 700; i++ {
			list = append(list, &eventstore.Series{Task: "t", Metric: "m", Variant: fmt.Sprint(i), MaxIter: 0, RolledThrough: 0})
		}
		if err := es.CreateSeriesMany(ctx, db.Write(), list); err != nil {
			t.Fatal(err)
		}
		var touches []eventstore.SeriesTouch
		for i, sr := range list {
			touches = append(touches, eventstore.SeriesTouch{ID: sr.ID, MaxIter: int64(i + 10), RolledThrough: int64(i), LastWTS: int64(1000 + i)})
		}
		if err := es.TouchSeriesMany(ctx, db.Write(), touches); err != nil {
			t.Fatal(err)
		}
		got, err := es.TaskSeries(ctx, db.Read(), "t")
		if err != nil || len(got) != len(list) {
			t.Fatalf("%d series, %v", len(got), err)
		}
		byID := map[int64]eventstore.Series{}
		for _, sr := range got {
			byID[sr.ID] = sr
		}
		for i, sr := range list {
			g := byID[sr.ID]
			if g.MaxIter != int64(i+10) || g.RolledThrough != int64(i) || g.LastWTS != int64(1000+i) {
				t.Fatalf("series %d: %+v", i, g)
			}
		}
		if db.D.Name() != "sqlite" {
			return
		}
		if _, err := db.Write().ExecContext(ctx, "ANALYZE"); err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{8, 128, 512} {
			args := make([]any, 4*n)
			for i := range args {
				args[i] = int64(i)
			}
			rows, err := db.Write().QueryContext(ctx, "EXPLAIN QUERY PLAN "+eventstore.TouchSeriesSQL(db.D, n), args...)
			if err != nil {
				t.Fatal(err)
			}
			var plan []string
			for rows.Next() {
				var id, parent, unused int
				var detail string
				if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
					t.Fatal(err)
				}
				plan = append(plan, detail)
			}
			rows.Close()
			if p := strings.Join(plan, "; "); !strings.Contains(p, "SEARCH event_series USING INTEGER PRIMARY KEY") {
				t.Fatalf("%d rows: plan %s", n, p)
			}
		}
	})
}
