package events

import (
	"context"
	"runtime"
)

// Prepare slots: parsing a batch and preparing its task summaries is the
// CPU-heavy part of a call outside the write transaction. With as many
// batches preparing at once as there are processors, the group-commit
// writer (the bottleneck once batches queue) waited for a processor about
// 40% of its time at 5,000 experiments on 2 cores (execution trace of
// trove-bench fleet); leaving it one processor raised the acknowledged
// rate by 12-15% (BENCHMARKS.md at 42a86b8, "Prepare slots").

// defaultPrepareSlots is one fewer than the processors Go runs on, at
// least one.
func defaultPrepareSlots() int { return max(1, runtime.GOMAXPROCS(0)-1) }

// enterPrepare waits for a prepare slot, or for the caller's end.
func (in *Ingester) enterPrepare(ctx context.Context) error {
	in.slotsOnce.Do(func() {
		n := in.PrepareSlots
		if n <= 0 {
			n = defaultPrepareSlots()
		}
		in.slots = make(chan struct{}, n)
	})
	select {
	case in.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// leavePrepare frees the slot enterPrepare took.
func (in *Ingester) leavePrepare() { <-in.slots }
