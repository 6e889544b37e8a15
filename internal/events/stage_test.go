package events

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// A training loop's batches (one iteration of a few series each) are
// staged on SQLite; re-sending a staged iteration replaces it, rollups
// included; a round of the StageMover's runs moves every staged point,
// and the points read the same before and after.
func TestStagedPointsThroughIngestAndMover(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		task := newStoredTask(t, db, "c", "staged")
		in := &Ingester{DB: db, Now: time.Now}
		report := func(iter int, value float64) {
			var lines [][]byte
			for v := range 5 {
				lines = append(lines, fmt.Appendf(nil, `{"type":"training_stats_scalar","task":%q,"iter":%d,"metric":"m","variant":"v%d","value":%g}`, task, iter, v, value+float64(v)))
			}
			if _, err := in.Ingest(ctx, Batch{Company: "c", User: "u", Lines: lines}); err != nil {
				t.Fatal(err)
			}
		}
		for it := range 40 {
			report(it, float64(it))
		}
		report(7, 100) // replaces a staged iteration
		staged := func() int {
			if db.IsPostgres() {
				return 0
			}
			var n int
			if err := db.Read().QueryRowContext(ctx, "SELECT COUNT(*) FROM event_scalars_staged").Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		if n := staged(); !db.IsPostgres() && n != 5*39 {
			t.Fatalf("%d points staged, want the 195 not replaced", n)
		}
		if err := (&Roller{DB: db}).Run(ctx); err != nil { // every series, however little behind
			t.Fatal(err)
		}
		es := eventstore.Of(db)
		series, err := es.TaskSeries(ctx, db.Read(), task)
		if err != nil || len(series) != 5 {
			t.Fatalf("series: %v %v", series, err)
		}
		read := func() map[int64][2]any {
			out := map[int64][2]any{}
			for _, s := range series {
				its, vals, err := es.IterValues(ctx, db.Read(), s.ID, NoIter, 1000)
				if err != nil {
					t.Fatal(err)
				}
				var sum float64
				if err := db.Read().QueryRowContext(ctx, "SELECT COALESCE(SUM(total), 0) FROM event_scalar_rollups WHERE series = ? AND level = (SELECT MIN(level) FROM event_scalar_rollups WHERE series = ?)", s.ID, s.ID).Scan(&sum); err != nil {
					t.Fatal(err)
				}
				out[s.ID] = [2]any{append(its, int64(len(its))), append(vals, sum)}
			}
			return out
		}
		before := read()
		for _, s := range series {
			v := before[s.ID][1].([]float64)
			var want float64
			for _, x := range v[:40] {
				want += x
			}
			if v[7] < 100 || v[40] != want {
				t.Fatalf("series %d: iteration 7 is %g (re-sent as 100 and up), rollups hold %g, the points %g", s.ID, v[7], v[40], want)
			}
		}
		m := &StageMover{DB: db}
		for range StageRounds {
			if err := m.Run(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if n := staged(); n != 0 {
			t.Fatalf("%d points staged after a round of moves", n)
		}
		if after := read(); !reflect.DeepEqual(after, before) {
			t.Fatalf("moving changed the points:\nbefore %v\nafter  %v", before, after)
		}
	})
}
