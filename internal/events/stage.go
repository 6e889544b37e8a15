package events

import (
	"context"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// StageMover moves staged scalar points into the store's main table
// where the store stages the points of small batches (SQLite: there a
// batch of one iteration would otherwise change a page per series once
// series are long; see store/eventstore/staged.go). Each run moves the next
// range of series, and StageRounds runs visit every series once, so a
// series' page is changed once a round for all the points it staged
// meanwhile. Reads see staged points all along.
type StageMover struct {
	DB *store.DB
	// next is the series the next run starts from.
	next int64
}

// StageRounds is the number of runs in a round over the staged series:
// with a run a second, a series reporting every 2 s stages some 15
// points between moves.
const StageRounds = 30

// Run moves the next range of staged points.
func (m *StageMover) Run(ctx context.Context) error {
	next, _, err := eventstore.Of(m.DB).MoveStaged(ctx, m.next, StageRounds)
	if err != nil {
		return err
	}
	m.next = next
	return nil
}
