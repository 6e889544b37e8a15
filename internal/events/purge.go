package events

import (
	"context"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// Purger deletes the scalar points of deleted tasks and models, a chunk
// per transaction, so that ingest goes on between the chunks (deleting
// a task only hides its series; see eventstore.Store.DeleteFor).
type Purger struct {
	DB *store.DB
}

const (
	// purgeChunk is the number of points one transaction deletes.
	purgeChunk = 10000
	// purgeSeriesPerRun bounds the series one run visits.
	purgeSeriesPerRun = 1000
)

// Run purges the deleted series, chunk after chunk, until none is left
// or ctx ends.
func (p *Purger) Run(ctx context.Context) error {
	es := eventstore.Of(p.DB)
	ids, err := es.SeriesToPurge(ctx, p.DB.Read(), purgeSeriesPerRun)
	if err != nil {
		return err
	}
	for _, id := range ids {
		for done := false; !done; {
			if err := ctx.Err(); err != nil {
				return err
			}
			err := p.DB.Tx(ctx, func(q store.Querier) error {
				var err error
				done, err = es.PurgeSeries(ctx, q, id, purgeChunk)
				return err
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}
