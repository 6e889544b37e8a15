package events

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// A summary prepared before the transaction is used only when the task is
// unchanged since: a batch whose task was written meanwhile (here by
// another batch) is merged into the stored task, and no count is lost.
func TestPreparedUpkeepOfAChangedTask(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		task := &store.Task{ID: newStoredTask(t, db, "c", "upkeep")}
		in := &Ingester{DB: db, Now: time.Now}
		line := func(iter int, value float64) []byte {
			return []byte(fmt.Sprintf(`{"type":"training_stats_scalar","task":%q,"iter":%d,"metric":"m","variant":"v","value":%g}`, task.ID, iter, value))
		}
		// batch B is parsed and its upkeep prepared ...
		parser := NewParser(UnknownWorker)
		e, bad := parser.Parse(line(1, 10))
		if bad != "" {
			t.Fatal(bad)
		}
		wts := time.Now().UnixMilli()
		parts := prepare([]*Event{e}, wts)
		upkeep := in.prepareUpkeep(ctx, "c", "u", time.Now(), parts, nil)
		if upkeep[task.ID] == nil {
			t.Fatal("no upkeep prepared for an existing task")
		}
		// ... then batch C is written first
		if _, err := in.Ingest(ctx, Batch{Company: "c", User: "u", Lines: [][]byte{line(2, 30)}}); err != nil {
			t.Fatal(err)
		}
		res, err := in.commit(&pendingBatch{ctx: ctx, company: "c", user: "u", now: time.Now(), wts: wts,
			parseErrs: map[string]int{}, parts: parts, tasks: map[string]bool{task.ID: false}, models: map[string]bool{}, events: 1, upkeep: upkeep})
		if err != nil || res.Added != 1 {
			t.Fatalf("commit: %v %+v", err, res)
		}
		got, err := db.Tasks().Get(ctx, db.Read(), task.ID)
		if err != nil {
			t.Fatal(err)
		}
		lm := got.LastMetrics[Hash("m")][Hash("v")]
		if lm == nil || lm.Count != 2 || lm.MinValue != 10 || lm.MaxValue != 30 || got.LastIteration != 2 {
			t.Fatalf("summary lost a batch: %+v, last_iteration %d", lm, got.LastIteration)
		}
		// and an unchanged task takes the prepared encoding
		parts = prepare([]*Event{mustParse(t, parser, line(3, 20))}, wts)
		upkeep = in.prepareUpkeep(ctx, "c", "u", time.Now(), parts, nil)
		if _, err := in.commit(&pendingBatch{ctx: ctx, company: "c", user: "u", now: time.Now(), wts: wts,
			parseErrs: map[string]int{}, parts: parts, tasks: map[string]bool{task.ID: false}, models: map[string]bool{}, events: 1, upkeep: upkeep}); err != nil {
			t.Fatal(err)
		}
		got, _ = db.Tasks().Get(ctx, db.Read(), task.ID)
		if lm := got.LastMetrics[Hash("m")][Hash("v")]; lm.Count != 3 || lm.Value != 20 || got.LastIteration != 3 {
			t.Fatalf("prepared summary not written: %+v", lm)
		}
	})
}

func mustParse(t *testing.T, p *Parser, line []byte) *Event {
	t.Helper()
	e, bad := p.Parse(line)
	if bad != "" {
		t.Fatal(bad)
	}
	return e
}

// The documents ingest wrote are kept with their rows' versions for the
// next batches; a task written by something else meanwhile is read again,
// so neither that write nor a batch is lost.
func TestKeptDocumentsFollowOtherWrites(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		id := newStoredTask(t, db, "c", "kept")
		in := &Ingester{DB: db, Now: time.Now}
		send := func(iter int, value float64) {
			t.Helper()
			line := fmt.Sprintf(`{"type":"training_stats_scalar","task":%q,"iter":%d,"metric":"m","variant":"v","value":%g}`, id, iter, value)
			if res, err := in.Ingest(ctx, Batch{Company: "c", User: "u", Lines: [][]byte{[]byte(line)}}); err != nil || res.Added != 1 {
				t.Fatalf("ingest: %v %+v", err, res)
			}
		}
		send(1, 10)
		kept, ok := in.docs.get("c", id)
		stored, err := db.Tasks().GetStored(ctx, db.Read(), id, "c")
		if err != nil {
			t.Fatal(err)
		}
		if !ok || kept.version != stored.Version {
			t.Fatalf("kept document %v, version %q, stored version %q", ok, kept.version, stored.Version)
		}
		send(2, 20) // from the kept document
		if kept2, _ := in.docs.get("c", id); kept2.version == kept.version {
			t.Fatalf("kept version did not move: %q", kept2.version)
		}

		// another writer renames the task
		task, err := db.Tasks().Get(ctx, db.Read(), id)
		if err != nil {
			t.Fatal(err)
		}
		task.Name = "renamed"
		if err := db.Tasks().Update(ctx, db.Write(), task); err != nil {
			t.Fatal(err)
		}
		send(3, 5)
		got, err := db.Tasks().Get(ctx, db.Read(), id)
		if err != nil {
			t.Fatal(err)
		}
		lm := got.LastMetrics[Hash("m")][Hash("v")]
		if got.Name != "renamed" || lm == nil || lm.Count != 3 || lm.MinValue != 5 || lm.MaxValue != 20 || got.LastIteration != 3 {
			t.Fatalf("name %q, summary %+v, last_iteration %d", got.Name, lm, got.LastIteration)
		}

		// the next batch encodes from the kept document's memo (made after
		// the rename): the stored document is what encoding the stored
		// task afresh gives, the new name in it
		send(4, 7)
		sd, err := db.Tasks().GetStored(ctx, db.Read(), id, "c")
		if err != nil {
			t.Fatal(err)
		}
		if sd.Rec.Name != "renamed" || sd.Rec.LastIteration != 4 {
			t.Fatalf("after the next batch: name %q, last_iteration %d", sd.Rec.Name, sd.Rec.LastIteration)
		}
		fresh, err := db.Tasks().Encode(sd.Rec)
		if err != nil {
			t.Fatal(err)
		}
		if fresh.Doc != string(sd.Raw) && !jsonEqual(t, []byte(fresh.Doc), sd.Raw) {
			t.Fatalf("stored document is not the task's encoding:\n stored %s\n fresh  %s", sd.Raw, fresh.Doc)
		}
	})
}

// jsonEqual compares two JSON documents by value (PostgreSQL's jsonb
// stores members in an order of its own).
func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, y)
}
