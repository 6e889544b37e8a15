package events

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
	"github.com/trove-ml/trove/internal/store/storetest"
)

func TestAdmitBoundsWaitingBatches(t *testing.T) {
	const mb = 1 << 20
	in := &Ingester{MaxPending: 10 * mb}
	var releases []func()
	steps := []struct {
		name    string
		cost    int64
		admit   bool
		pending int64 // after the step
	}{
		{"first batch", 4 * mb, true, 4 * mb},
		{"second fits", 6 * mb, true, 10 * mb},
		{"one byte over", 1, false, 10 * mb},
		{"large one refused while others wait", 20 * mb, false, 10 * mb},
	}
	for _, s := range steps {
		release, err := in.admit(s.cost)
		if got := err == nil; got != s.admit {
			t.Fatalf("%s: admitted %v, want %v (err %v)", s.name, got, s.admit, err)
		}
		if err != nil {
			var ae *apierr.Error
			if !errors.As(err, &ae) || ae.Code != 429 || ae.RetryAfter <= 0 {
				t.Fatalf("%s: refusal %#v, want a 429 with Retry-After", s.name, err)
			}
			if want := "(10 MB pending, limit 10 MB)"; !strings.Contains(ae.Message(), want) {
				t.Fatalf("%s: message %q does not name %q", s.name, ae.Message(), want)
			}
		} else {
			releases = append(releases, release)
		}
		if p := in.admitted.pending.Load(); p != s.pending {
			t.Fatalf("%s: pending %d, want %d", s.name, p, s.pending)
		}
	}
	for _, r := range releases {
		r()
	}
	if p := in.admitted.pending.Load(); p != 0 {
		t.Fatalf("pending %d after every release", p)
	}
	// alone, a batch larger than the bound still gets in
	release, err := in.admit(20 * mb)
	if err != nil {
		t.Fatalf("a lone large batch: %v", err)
	}
	release()
}

// TestIngestRefusedWhileQueueFull: a batch arriving while the waiting
// batches fill the bound is refused before anything is written, and is
// written once the queue has room.
func TestIngestRefusedWhileQueueFull(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		task := newStoredTask(t, db, "c1", "admission")
		in := &Ingester{DB: db, Now: time.Now, MaxPending: 1 << 20}
		lines := [][]byte{[]byte(fmt.Sprintf(`{"task":%q,"type":"training_stats_scalar","metric":"m","variant":"v","iter":1,"value":2}`, task))}
		hold, err := in.admit(1 << 20) // stands for a full queue
		if err != nil {
			t.Fatal(err)
		}
		_, err = in.Ingest(ctx, Batch{Company: "c1", User: "u", Lines: lines})
		var ae *apierr.Error
		if !errors.As(err, &ae) || ae.Code != 429 {
			t.Fatalf("Ingest with a full queue: %v, want 429", err)
		}
		if sr, err := eventstore.Of(db).SeriesOf(ctx, db.Write(), task, []string{"m"}); err != nil || len(sr) != 0 {
			t.Fatalf("a refused batch left series %v (err %v)", sr, err)
		}
		hold()
		res, err := in.Ingest(ctx, Batch{Company: "c1", User: "u", Lines: lines})
		if err != nil || res.Added != 1 {
			t.Fatalf("Ingest after the queue drained: %+v, %v", res, err)
		}
		if p := in.admitted.pending.Load(); p != 0 {
			t.Fatalf("pending %d after the batch was written", p)
		}
	})
}
