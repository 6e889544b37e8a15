package events

import (
	"context"
	"fmt"
	"hash/maphash"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// Batches go to lanes by their first task, those adding metric names too.
func TestBatchesSpreadOverLanesByTask(t *testing.T) {
	g := &groupCommit{seed: maphash.MakeSeed(), lanes: []*lane{{}, {}, {}, {}}}
	batch := func(task, project string, renames bool) *pendingBatch {
		return &pendingBatch{company: "c", parts: []*entityPart{{id: task}},
			upkeep: map[string]*taskUpkeep{task: {task: &store.Task{ID: task, Project: project}, renames: renames}}}
	}
	naming := map[*lane]bool{}
	for i := 0; i < 64; i++ {
		id := fmt.Sprint("t", i)
		l := g.laneOf(batch(id, "p1", true))
		if l != g.laneOf(batch(id, "p1", false)) {
			t.Fatalf("task %s: its batches went to two lanes", id)
		}
		naming[l] = true
	}
	if len(naming) < 3 {
		t.Fatalf("name-adding batches of 64 tasks of one project used %d of 4 lanes", len(naming))
	}
	one := &groupCommit{lanes: []*lane{{}}}
	if one.laneOf(batch("t", "p1", true)) != one.lanes[0] {
		t.Fatal("a single lane")
	}
}

// Batches do not wait on the count rows every task of the project shares:
// while another transaction holds those rows locked, a group of batches
// adding no name commits, and so does a batch adding a held name (a
// task's first batch), whose count is folded in once the rows are free
// and is exact. (SQLite has one writer: there the rows are not held by
// another transaction, and the batches and counts are checked alone.)
func TestBatchesWaitOnNoCountRow(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		in := &Ingester{DB: db, Now: time.Now}
		line := func(task string, iter int, metric string) []byte {
			return fmt.Appendf(nil, `{"type":"training_stats_scalar","task":%q,"iter":%d,"metric":%q,"variant":"v","value":1}`, task, iter, metric)
		}
		ingest := func(ctx context.Context, task string, iter int, metric string) error {
			_, err := in.Ingest(ctx, Batch{Company: "c", User: "u", Lines: [][]byte{line(task, iter, metric)}})
			return err
		}
		var tasks []string
		for i := 0; i < 6; i++ {
			id := newStoredTask(t, db, "c", fmt.Sprint("t", i))
			tasks = append(tasks, id)
			if err := ingest(ctx, id, 0, "loss"); err != nil {
				t.Fatal(err)
			}
		}
		// the first batches' counts, appended on PostgreSQL, go to the rows
		if err := (&NameCountFolder{DB: db}).Run(ctx); err != nil {
			t.Fatal(err)
		}
		late := newStoredTask(t, db, "c", "late") // reports after the others
		// holding: another transaction holds the project's count rows
		// until release is closed
		holding, release, held := false, make(chan struct{}), make(chan error, 1)
		if db.WriteConcurrency() > 1 {
			holding = true
			go func() {
				held <- db.Tx(ctx, func(q store.Querier) error {
					var n int
					err := q.QueryRowContext(ctx, "SELECT count(*) FROM (SELECT tasks FROM task_metric_variants FOR UPDATE) x").Scan(&n)
					if err == nil && n == 0 {
						err = fmt.Errorf("no count row to hold")
					}
					held <- err
					<-release
					return nil
				})
			}()
			if err := <-held; err != nil {
				t.Fatal(err)
			}
		}
		defer func() {
			if holding {
				close(release)
			}
		}()
		wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		errs := make(chan error, len(tasks))
		for _, id := range tasks {
			go func() { errs <- ingest(wctx, id, 1, "loss") }()
		}
		for range tasks {
			if err := <-errs; err != nil {
				t.Fatalf("a batch adding no name, while the count rows are held: %v", err)
			}
		}
		if err := ingest(wctx, late, 0, "loss"); err != nil {
			t.Fatalf("a name-adding batch, while the count rows are held: %v", err)
		}
		if holding {
			holding = false
			close(release)
			if err := <-held; err != nil {
				t.Fatal(err)
			}
		}
		if err := (&NameCountFolder{DB: db}).Run(ctx); err != nil {
			t.Fatal(err)
		}
		names, err := db.TaskMetricVariants(ctx, store.DocScan{Table: "tasks", Companies: []string{"c"}, AllProjects: true})
		if err != nil {
			t.Fatal(err)
		}
		var counts []string
		for _, n := range names {
			var c int
			if err := db.Read().QueryRowContext(ctx, "SELECT tasks FROM task_metric_variants WHERE metric = ?", n.Metric).Scan(&c); err != nil {
				t.Fatal(err)
			}
			counts = append(counts, fmt.Sprint(n.Metric, ":", c))
		}
		if fmt.Sprint(counts) != "[loss:7]" {
			t.Fatalf("counts: %v", counts)
		}
	})
}
