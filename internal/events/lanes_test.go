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

// Batches that add metric names to tasks of one project go to one lane
// (that project's); the others go by task, over every lane.
func TestNameAddingBatchesShareTheirProjectLane(t *testing.T) {
	g := &groupCommit{seed: maphash.MakeSeed(), lanes: []*lane{{}, {}, {}, {}}}
	batch := func(task, project string, renames bool) *pendingBatch {
		return &pendingBatch{company: "c", parts: []*entityPart{{id: task}},
			upkeep: map[string]*taskUpkeep{task: {task: &store.Task{ID: task, Project: project}, renames: renames}}}
	}
	naming := map[*lane]bool{}
	byTask := map[*lane]bool{}
	for i := 0; i < 64; i++ {
		naming[g.laneOf(batch(fmt.Sprint("t", i), "p1", true))] = true
		byTask[g.laneOf(batch(fmt.Sprint("t", i), "p1", false))] = true
	}
	if len(naming) != 1 {
		t.Fatalf("name-adding batches of one project went to %d lanes", len(naming))
	}
	if len(byTask) < 3 {
		t.Fatalf("batches adding no name used %d of 4 lanes", len(byTask))
	}
	one := &groupCommit{lanes: []*lane{{}}}
	if one.laneOf(batch("t", "p1", true)) != one.lanes[0] {
		t.Fatal("a single lane")
	}
}

// Batches that add no metric name do not touch the count rows every task
// of the project shares: while another transaction holds those rows
// locked, a group of such batches commits; a batch adding a held name
// (a task's first batch) waits for them and then leaves the counts exact. (SQLite has one writer: there
// the rows are not held by another transaction, and the batches and
// counts are checked alone.)
func TestBatchesAddingNoNameWaitOnNoCountRow(t *testing.T) {
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
		adding := make(chan error, 1)
		go func() { adding <- ingest(wctx, late, 0, "loss") }()
		if holding {
			select {
			case err := <-adding:
				t.Fatalf("a name-adding batch did not wait for the held count rows: %v", err)
			case <-time.After(300 * time.Millisecond):
			}
			holding = false
			close(release)
			if err := <-held; err != nil {
				t.Fatal(err)
			}
		}
		if err := <-adding; err != nil {
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
