package events

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// A group holding several batches of one task, all prepared from the same
// stored task, merges every batch's summary: the task is written once, at
// the end of the transaction, with all of them; a batch adding a metric
// name leaves the name index exact; the prepared tasks stay as prepared
// (a retried transaction uses them again).
func TestGroupMergesBatchesOfOneTask(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		a, b := newStoredTask(t, db, "c", "a"), newStoredTask(t, db, "c", "b")
		in := &Ingester{DB: db, Now: time.Now}
		parser := NewParser(UnknownWorker)
		batch := func(task string, iter int, variant string, value float64) *pendingBatch {
			line := fmt.Sprintf(`{"type":"training_stats_scalar","task":%q,"iter":%d,"metric":"m","variant":%q,"value":%g}`, task, iter, variant, value)
			now := time.Now()
			parts := prepare([]*Event{mustParse(t, parser, []byte(line))}, now.UnixMilli())
			return &pendingBatch{ctx: ctx, company: "c", user: "u", now: now, wts: now.UnixMilli(), parseErrs: map[string]int{},
				parts: parts, tasks: map[string]bool{task: false}, models: map[string]bool{}, events: 1,
				upkeep: in.prepareUpkeep(ctx, "c", "u", now, parts, nil), done: make(chan struct{})}
		}
		group := []*pendingBatch{batch(a, 1, "v", 10), batch(b, 1, "v", 5), batch(a, 2, "v", 30), batch(a, 3, "w", 7)}
		for _, p := range group {
			if p.upkeep[p.parts[0].id] == nil {
				t.Fatal("no upkeep prepared")
			}
		}
		in.writeGroup(group)
		for i, p := range group {
			<-p.done
			if p.err != nil || p.res.Added != 1 {
				t.Fatalf("batch %d: %v %+v", i, p.err, p.res)
			}
		}
		got, err := db.Tasks().Get(ctx, db.Read(), a)
		if err != nil {
			t.Fatal(err)
		}
		v, w := got.LastMetrics[Hash("m")][Hash("v")], got.LastMetrics[Hash("m")][Hash("w")]
		if v == nil || v.Count != 2 || v.MinValue != 10 || v.MaxValue != 30 || w == nil || w.Count != 1 || got.LastIteration != 3 {
			t.Fatalf("task a lost a batch: v %+v, w %+v, last_iteration %d", v, w, got.LastIteration)
		}
		if got, _ := db.Tasks().Get(ctx, db.Read(), b); got.LastMetrics[Hash("m")][Hash("v")].Count != 1 {
			t.Fatalf("task b: %+v", got.LastMetrics)
		}
		if first := group[0].upkeep[a].task.LastMetrics[Hash("m")][Hash("v")]; first.Count != 1 || first.MaxValue != 10 {
			t.Fatalf("the first batch's prepared task was changed by the later ones: %+v", first)
		}
		names, err := db.TaskMetricVariants(ctx, store.DocScan{Table: "tasks", Companies: []string{"c"}, AllProjects: true})
		if err != nil {
			t.Fatal(err)
		}
		var pairs []string
		for _, n := range names {
			pairs = append(pairs, n.Metric+"/"+n.Variant)
		}
		sort.Strings(pairs)
		if fmt.Sprint(pairs) != "[m/v m/w]" {
			t.Fatalf("name index: %v", pairs)
		}
	})
}
