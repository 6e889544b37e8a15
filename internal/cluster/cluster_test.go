package cluster

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

type countingSessions struct {
	forgets atomic.Int32
	marked  chan string
}

func (c *countingSessions) MarkRevoked(s string)    { c.marked <- s }
func (c *countingSessions) ForgetRevocationChecks() { c.forgets.Add(1) }

// TestForgetForKeepsForgetting: while logouts cannot be heard, cached
// answers are dropped every forgetEvery, and the wait ends with ctx.
func TestForgetForKeepsForgetting(t *testing.T) {
	s := &countingSessions{}
	if !forgetFor(context.Background(), 3*forgetEvery+forgetEvery/2, s) {
		t.Fatal("forgetFor ended early")
	}
	if n := s.forgets.Load(); n < 4 {
		t.Fatalf("forgot %d times in 3.5 periods, want 4 (at once, then every period)", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if forgetFor(ctx, time.Hour, s) {
		t.Fatal("forgetFor went on after its context ended")
	}
}

// TestNodeRunsJobsOnceAtATime: a run of a job that is still running is
// skipped; other jobs and start-up steps go on.
func TestNodeRunsJobsOnceAtATime(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		n := &Node{DB: db, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
		ctx := context.Background()
		inside, release := make(chan struct{}), make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = n.RunJob(ctx, "sweep", func(context.Context) error {
				close(inside)
				<-release
				return nil
			})
		}()
		<-inside
		ran := false
		if err := n.RunJob(ctx, "sweep", func(context.Context) error { ran = true; return nil }); err != nil || ran {
			t.Fatalf("second run of a running job: ran %v, err %v", ran, err)
		}
		if err := n.RunJob(ctx, "rollups", func(context.Context) error { ran = true; return nil }); err != nil || !ran {
			t.Fatalf("another job: ran %v, err %v", ran, err)
		}
		close(release)
		wg.Wait()
		ran = false
		if err := n.Startup(ctx, func(context.Context) error { ran = true; return nil }); err != nil || !ran {
			t.Fatalf("start-up step: ran %v, err %v", ran, err)
		}
	})
}
