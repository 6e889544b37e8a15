package events

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// TestIngestKeepsMetricNameCountsExact: the names the writer counts for
// its task writes (added at once on SQLite, appended and folded later on
// PostgreSQL) are listed at once, and the count rows end equal to a
// recount of the stored documents: after
// first batches of several tasks and projects, batches adding names to a
// task that already has some, batches adding none, concurrent batches of
// one task (grouped in one transaction), and a task whose stored entry
// holds other names than the ones reported under its keys.
func TestIngestKeepsMetricNameCountsExact(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		in := &Ingester{DB: db, Now: time.Now}
		line := func(task, metric, variant string, iter int) string {
			return fmt.Sprintf(`{"type":"training_stats_scalar","task":%q,"iter":%d,"metric":%q,"variant":%q,"value":%d}`, task, iter, metric, variant, iter)
		}
		ingest := func(lines ...string) {
			t.Helper()
			b := Batch{Company: "c", User: "u"}
			for _, l := range lines {
				b.Lines = append(b.Lines, []byte(l))
			}
			if _, err := in.Ingest(ctx, b); err != nil {
				t.Fatal(err)
			}
		}
		a := newStoredTask(t, db, "c", "a")
		b := newStoredTask(t, db, "c", "b")
		other := newTaskIn(t, db, "c", "p2", nil)
		legacy := newTaskIn(t, db, "c", "p2", map[string]map[string]*store.MetricSummary{
			Hash("loss"): {Hash("train"): {Count: 1, Value: 3}}, // names missing, as an old writer left them
		})

		// first batches, several tasks in one batch
		ingest(line(a, "loss", "train", 0), line(a, "loss", "val", 0), line(b, "loss", "train", 0), line(other, "acc", "top1", 0))
		// a name added to a task that has names; a batch adding none
		ingest(line(a, "lr", "group0", 1), line(a, "loss", "train", 1))
		ingest(line(b, "loss", "train", 1))
		// the stored entry's names are replaced by the reported ones
		ingest(line(legacy, "loss", "train", 1), line(legacy, "gpu", "util", 1))
		// concurrent batches of one task, new names and old ones
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ingest(line(b, fmt.Sprint("m", i%3), "v", 2+i), line(b, "loss", "train", 2+i))
			}()
		}
		wg.Wait()

		// the names a project lists include the counts not yet folded
		names, err := db.TaskMetricVariants(ctx, store.DocScan{Table: "tasks", Companies: []string{"c"}, AllProjects: true})
		if err != nil {
			t.Fatal(err)
		}
		var listed []string
		for _, n := range names {
			listed = append(listed, n.Metric+"/"+n.Variant)
		}
		slices.Sort(listed)
		if got := strings.Join(listed, " "); got != "acc/top1 gpu/util loss/train loss/val lr/group0 m0/v m1/v m2/v" {
			t.Fatalf("names listed before folding: %s", got)
		}
		if err := (&NameCountFolder{DB: db}).Run(ctx); err != nil {
			t.Fatal(err)
		}
		kept, recount := keptAndRecounted(t, db)
		if kept != recount {
			t.Fatalf("count rows:\n%s\nrecounted from the documents:\n%s", kept, recount)
		}
		for _, want := range []string{" :loss/train=2", " p2:loss/train=1", " p2:acc/top1=1", " p2:gpu/util=1", " :m2/v=1", " :lr/group0=1"} {
			if !strings.Contains(kept, want) {
				t.Fatalf("count rows lack %q:\n%s", want, kept)
			}
		}
		if strings.Contains(kept, ":/=") {
			t.Fatalf("a count row for a task's old, empty names is left:\n%s", kept)
		}
	})
}

// newTaskIn inserts an in-progress task of company in project with
// last_metrics lm and returns its id.
func newTaskIn(t testing.TB, db *store.DB, company, project string, lm map[string]map[string]*store.MetricSummary) string {
	t.Helper()
	now := jsonx.Now()
	task := &store.Task{ID: ids.New(), Company: company, User: "u", Name: "n", Type: "training", Project: project,
		Status: "in_progress", Created: now, LastUpdate: now, LastChange: now, Started: &now, LastMetrics: lm}
	task.Normalize()
	if err := db.Tasks().Insert(context.Background(), db.Write(), task); err != nil {
		t.Fatal(err)
	}
	return task.ID
}

// keptAndRecounted is the metric-name count rows held (countRows), and
// those a recount of the stored task documents gives.
func keptAndRecounted(t testing.TB, db *store.DB) (kept, recount string) {
	t.Helper()
	kept = countRows(t, db, `SELECT company, coalesce(project, ''), metric_hash, variant_hash, metric, variant, tasks
		FROM task_metric_variants WHERE tasks <> 0`)
	recount = countRows(t, db, `SELECT company, coalesce(project, ''), metric_hash, variant_hash, metric, variant, COUNT(*)
		FROM task_metric_variant_rows GROUP BY company, coalesce(project, ''), metric_hash, variant_hash, metric, variant`)
	return kept, recount
}

// countRows is the rows of a count query, one sorted line each:
// "company metric-key variant-key project:metric/variant=tasks" (keys
// shortened).
func countRows(t testing.TB, db *store.DB, query string) string {
	t.Helper()
	rows, err := db.Read().QueryContext(context.Background(), query+" ORDER BY 1, 2, 3, 4, 5, 6")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var company, project, mh, vh, metric, variant string
		var n int
		if err := rows.Scan(&company, &project, &mh, &vh, &metric, &variant, &n); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s %.6s %.6s %s:%s/%s=%d", company, mh, vh, project, metric, variant, n))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(out, "\n")
}

// TestMovedTasksTakeTheirUnfoldedNameCounts: tasks moved to another
// project (projects.merge) right after their first batches, before the
// counts those appended are folded (PostgreSQL), leave their names
// counted under the new project only.
func TestMovedTasksTakeTheirUnfoldedNameCounts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		in := &Ingester{DB: db, Now: time.Now}
		for i := range 3 {
			id := newTaskIn(t, db, "c", "src", nil)
			line := fmt.Sprintf(`{"type":"training_stats_scalar","task":%q,"iter":0,"metric":"loss","variant":"v%d","value":1}`, id, i%2)
			if _, err := in.Ingest(ctx, Batch{Company: "c", User: "u", Lines: [][]byte{[]byte(line)}}); err != nil {
				t.Fatal(err)
			}
		}
		err := db.Tx(ctx, func(q store.Querier) error {
			_, err := db.MoveActiveContents(ctx, q, "tasks", []string{"c"}, "src", "dst")
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := (&NameCountFolder{DB: db}).Run(ctx); err != nil {
			t.Fatal(err)
		}
		kept, recount := keptAndRecounted(t, db)
		if kept != recount || !strings.Contains(kept, " dst:loss/v0=2") || strings.Contains(kept, " src:") {
			t.Fatalf("count rows:\n%s\nrecounted from the documents:\n%s", kept, recount)
		}
	})
}
