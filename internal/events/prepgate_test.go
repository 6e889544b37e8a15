package events

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// TestPrepareSlotsBoundParsing: with every prepare slot taken, a batch
// waits before parsing, gives up with its caller's context, writes
// nothing meanwhile, and is written once a slot is free; a written batch
// leaves its slot free, and so does one that fails while preparing.
func TestPrepareSlotsBoundParsing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		task := newStoredTask(t, db, "c1", "slots")
		in := &Ingester{DB: db, Now: time.Now, PrepareSlots: 1}
		line := func(iter int) [][]byte {
			return [][]byte{[]byte(fmt.Sprintf(`{"task":%q,"type":"training_stats_scalar","metric":"m","variant":"v","iter":%d,"value":2}`, task, iter))}
		}
		if err := in.enterPrepare(ctx); err != nil { // the only slot, taken
			t.Fatal(err)
		}
		short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		_, err := in.Ingest(short, Batch{Company: "c1", User: "u", Lines: line(1)})
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Ingest with no free slot: %v, want the caller's deadline", err)
		}
		if sr, err := eventstore.Of(db).SeriesOf(ctx, db.Write(), task, []string{"m"}); err != nil || len(sr) != 0 {
			t.Fatalf("a batch that never got a slot left series %v (err %v)", sr, err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := in.Ingest(ctx, Batch{Company: "c1", User: "u", Lines: line(2)})
			done <- err
		}()
		select {
		case err := <-done:
			t.Fatalf("Ingest finished while the slot was taken: %v", err)
		case <-time.After(50 * time.Millisecond):
		}
		in.leavePrepare()
		if err := <-done; err != nil {
			t.Fatalf("Ingest once the slot was freed: %v", err)
		}
		// a batch that fails while preparing (two allow_locked settings for
		// one task) frees its slot too: the next batch gets in
		bad := [][]byte{
			[]byte(fmt.Sprintf(`{"task":%q,"type":"training_stats_scalar","metric":"m","variant":"v","iter":3,"value":2,"allow_locked":true}`, task)),
			[]byte(fmt.Sprintf(`{"task":%q,"type":"training_stats_scalar","metric":"m","variant":"v","iter":3,"value":2,"allow_locked":false}`, task)),
		}
		if _, err := in.Ingest(ctx, Batch{Company: "c1", User: "u", Lines: bad}); err == nil {
			t.Fatal("a batch with two allow_locked settings was accepted")
		}
		for i := 0; i < 3; i++ {
			short, cancel := context.WithTimeout(ctx, 5*time.Second)
			res, err := in.Ingest(short, Batch{Company: "c1", User: "u", Lines: line(10 + i)})
			cancel()
			if err != nil || res.Added != 1 {
				t.Fatalf("batch %d after the others: %+v, %v (a slot was kept)", i, res, err)
			}
		}
		if n := len(in.slots); n != 0 {
			t.Fatalf("%d slots taken after every batch ended", n)
		}
	})
}

func TestDefaultPrepareSlotsLeaveTheWriterAProcessor(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, c := range []struct{ procs, slots int }{{1, 1}, {2, 1}, {4, 3}, {16, 15}} {
		runtime.GOMAXPROCS(c.procs)
		if n := defaultPrepareSlots(); n != c.slots {
			t.Errorf("GOMAXPROCS %d: %d prepare slots, want %d", c.procs, n, c.slots)
		}
	}
}
