package events

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// Deleting a task's events hides its points at once; the purge deletes
// them later, chunk by chunk, and a task reporting again after the delete
// (a reset) sees only its new points.
func TestDeletedPointsArePurged(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		task := &store.Task{ID: newStoredTask(t, db, "c", "purge")}
		in := &Ingester{DB: db, Now: time.Now}
		report := func(from, n int) {
			var lines [][]byte
			for i := from; i < from+n; i++ {
				lines = append(lines, []byte(fmt.Sprintf(`{"type":"training_stats_scalar","task":%q,"iter":%d,"metric":"m","variant":"v","value":1}`, task.ID, i)))
			}
			if _, err := in.Ingest(ctx, Batch{Company: "c", User: "u", Lines: lines}); err != nil {
				t.Fatal(err)
			}
		}
		report(0, purgeChunk+5) // more than one chunk
		es := eventstore.Of(db)
		old, err := es.TaskSeries(ctx, db.Read(), task.ID)
		if err != nil || len(old) != 1 {
			t.Fatalf("series before delete: %v %v", old, err)
		}
		var deleted int64
		if err := db.Tx(ctx, func(q store.Querier) error {
			deleted, err = es.DeleteFor(ctx, q, []string{task.ID})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if deleted != purgeChunk+5 {
			t.Fatalf("deleted %d events, want %d", deleted, purgeChunk+5)
		}
		report(0, 3)
		now2, err := es.TaskSeries(ctx, db.Read(), task.ID)
		if err != nil || len(now2) != 1 || now2[0].ID == old[0].ID {
			t.Fatalf("series after delete and report: %v %v", now2, err)
		}
		its, _, err := es.IterValues(ctx, db.Read(), now2[0].ID, -1, 1<<30)
		if err != nil || len(its) != 3 {
			t.Fatalf("new series holds %d points (%v), want 3", len(its), err)
		}
		if its, _, _ := es.IterValues(ctx, db.Read(), old[0].ID, -1, 1<<30); len(its) != purgeChunk+5 {
			t.Fatalf("deleted series holds %d points before the purge", len(its))
		}
		rollups := func(series int64) (n int) {
			if err := db.Read().QueryRowContext(ctx, "SELECT count(*) FROM event_scalar_rollups WHERE series = ?", series).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		if rollups(old[0].ID) == 0 {
			t.Fatal("the deleted series' rollups went with the delete; the purge deletes them")
		}
		if err := (&Purger{DB: db}).Run(ctx); err != nil {
			t.Fatal(err)
		}
		if n := rollups(old[0].ID); n != 0 {
			t.Fatalf("deleted series keeps %d rollups after the purge", n)
		}
		if its, _, _ := es.IterValues(ctx, db.Read(), old[0].ID, -1, 1<<30); len(its) != 0 {
			t.Fatalf("deleted series holds %d points after the purge", len(its))
		}
		if left, err := es.SeriesToPurge(ctx, db.Read(), 10); err != nil || len(left) != 0 {
			t.Fatalf("series left to purge: %v %v", left, err)
		}
		if its, _, _ := es.IterValues(ctx, db.Read(), now2[0].ID, -1, 1<<30); len(its) != 3 {
			t.Fatalf("the purge touched the new series: %d points", len(its))
		}
	})
}

// The count of deleted points comes from the rollups and the points past
// them; it matches the points stored whatever was rolled up.
func TestDeletedPointsCount(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		task := newStoredTask(t, db, "c", "count")
		in := &Ingester{DB: db, Now: time.Now}
		report := func(variant string, iters ...int) {
			var lines [][]byte
			for _, i := range iters {
				iter := fmt.Sprintf(`"iter":%d,`, i)
				if i < 0 {
					iter = "" // no iteration
				}
				lines = append(lines, []byte(fmt.Sprintf(`{"type":"training_stats_scalar","task":%q,%s"metric":"m","variant":%q,"value":%d}`, task, iter, variant, i)))
			}
			if _, err := in.Ingest(ctx, Batch{Company: "c", User: "u", Lines: lines}); err != nil {
				t.Fatal(err)
			}
		}
		var big []int
		for i := 0; i < 100; i++ {
			big = append(big, i)
		}
		report("a", big...)      // rolled up inline
		report("a", 100, 101, 5) // past the mark, and one replaced below it
		report("b", 0, 1)        // a new series of a small batch
		report("c", -1)          // no iteration
		if err := (&Roller{DB: db}).Run(ctx); err != nil {
			t.Fatal(err)
		}
		report("b", 1, 2)   // one replaced below the new mark, one past it
		report("a", 3, 102) // replaced below the mark, one new
		want := int64(103 + 3 + 1)
		var got int64
		if err := db.Tx(ctx, func(q store.Querier) error {
			var err error
			got, err = eventstore.Of(db).DeleteFor(ctx, q, []string{task})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("deleted %d points, %d were stored", got, want)
		}
	})
}

// A purge in chunks smaller than a series' rollups takes several calls,
// each deleting at most a chunk, and ends with the series gone.
func TestPurgeSeriesChunksRollups(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		task := newStoredTask(t, db, "c", "chunks")
		in := &Ingester{DB: db, Now: time.Now}
		var lines [][]byte
		for i := 0; i < 400; i++ {
			lines = append(lines, []byte(fmt.Sprintf(`{"type":"training_stats_scalar","task":%q,"iter":%d,"metric":"m","variant":"v","value":1}`, task, i)))
		}
		if _, err := in.Ingest(ctx, Batch{Company: "c", User: "u", Lines: lines}); err != nil {
			t.Fatal(err)
		}
		es := eventstore.Of(db)
		series, err := es.TaskSeries(ctx, db.Read(), task)
		if err != nil || len(series) != 1 {
			t.Fatalf("series: %v %v", series, err)
		}
		id := series[0].ID
		var rollups int
		if err := db.Read().QueryRowContext(ctx, "SELECT count(*) FROM event_scalar_rollups WHERE series = ?", id).Scan(&rollups); err != nil || rollups < 10 {
			t.Fatalf("rollups before: %d %v", rollups, err)
		}
		if err := db.Tx(ctx, func(q store.Querier) error {
			_, err := es.DeleteFor(ctx, q, []string{task})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		const chunk = 7
		calls := 0
		for done := false; !done; calls++ {
			if calls > 1000 {
				t.Fatal("the purge does not end")
			}
			if err := db.Tx(ctx, func(q store.Querier) error {
				done, err = es.PurgeSeries(ctx, q, id, chunk)
				return err
			}); err != nil {
				t.Fatal(err)
			}
		}
		if want := 400/chunk + rollups/chunk + 1; calls < want {
			t.Fatalf("purged in %d calls, want at least %d (a chunk per call)", calls, want)
		}
		var left int
		if err := db.Read().QueryRowContext(ctx, "SELECT (SELECT count(*) FROM event_scalar_rollups WHERE series = ?) + (SELECT count(*) FROM event_series WHERE id = ?)", id, id).Scan(&left); err != nil || left != 0 {
			t.Fatalf("left after the purge: %d %v", left, err)
		}
	})
}
