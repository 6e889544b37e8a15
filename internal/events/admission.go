package events

import (
	"sync/atomic"

	"github.com/trove-ml/trove/internal/apierr"
)

// Admission: batches wait in memory for their group's commit. When
// experiments report faster than the store writes (many thousands at
// once), that queue, and the memory it holds, would grow without end; past
// a bound the server answers 429 instead, which the SDK retries after the
// Retry-After pause, so the load is shed before memory runs out.

// DefaultMaxPending is the bound on what waiting batches hold, counted
// by pendingCost, when Ingester.MaxPending is zero.
const DefaultMaxPending = 512 << 20

// taskCost stands for what a waiting batch holds for its task: the
// encoded document (about 15 KB with 50 metrics) and the copy of the
// summary it changes.
const taskCost = 32 << 10

// pendingCost is what a waiting batch is counted as: four times its lines
// (the body, the events parsed from it, their rows) and its task's share.
// At 5,000 experiments of 50 scalars a batch held about 65 KB of the
// server's live heap (GODEBUG=gctrace=1), as this counts it.
func pendingCost(lines [][]byte) int64 {
	n := int64(taskCost)
	for _, ln := range lines {
		n += 4 * int64(len(ln))
	}
	return n
}

// admission counts what the waiting batches hold.
type admission struct {
	pending atomic.Int64
}

// admit counts cost as waiting, or refuses it when the waiting batches
// would then hold more than the bound. A batch alone is always admitted,
// so that no batch is too large to ever get in (the body limit bounds it).
func (in *Ingester) admit(cost int64) (release func(), err error) {
	limit := in.MaxPending
	if limit <= 0 {
		limit = DefaultMaxPending
	}
	if n := in.admitted.pending.Add(cost); n > limit && n != cost {
		in.admitted.pending.Add(-cost)
		return nil, apierr.EventQueueFull((n-cost)>>20, limit>>20)
	}
	return func() { in.admitted.pending.Add(-cost) }, nil
}
