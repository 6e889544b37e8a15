package events

import (
	"context"
	"errors"

	"github.com/trove-ml/trove/internal/store"
)

// Roller completes scalar rollups that are behind their points. Ingest
// keeps a series' rollups in step with its points (rolled_through =
// max_iter); a series whose mark is behind (rollups never built for it,
// e.g. after a bulk load straight into the table) is caught up here: every
// couple of seconds the roller reads its points past the mark, adds them
// to the buckets of every level and moves the mark. Histograms read the
// rollups up to the mark and group the points past it themselves, so they
// are exact at any time.
type Roller struct {
	DB *store.DB
}

const (
	// rollSeriesPerRun bounds the series one run visits.
	rollSeriesPerRun = 1000
	// rollChunk bounds the points rolled up in one transaction.
	rollChunk = 100000
)

// Run rolls up the series that have points past their mark.
func (r *Roller) Run(ctx context.Context) error {
	ids, err := r.DB.Events().SeriesBehind(ctx, r.DB.Read(), rollSeriesPerRun)
	if err != nil {
		return err
	}
	for _, id := range ids {
		for {
			more, err := r.roll(ctx, id)
			if err != nil {
				return err
			}
			if !more || ctx.Err() != nil {
				break
			}
		}
	}
	return ctx.Err()
}

// roll adds up to rollChunk points of a series to its rollups; it reports
// whether points remain.
func (r *Roller) roll(ctx context.Context, id int64) (bool, error) {
	more := false
	err := r.DB.Tx(ctx, func(q store.Querier) error {
		es := r.DB.Events()
		sr, err := es.LockSeries(ctx, q, id)
		if errors.Is(err, store.ErrNotFound) {
			return nil // deleted meanwhile
		}
		if err != nil || sr.MaxIter <= sr.RolledThrough {
			return err
		}
		after := rolledThrough(sr)
		its, vals, err := es.IterValues(ctx, q, id, after, rollChunk)
		if err != nil {
			return err
		}
		acc := newRollupAcc(id)
		for i, it := range its {
			acc.add(it, 1, vals[i])
		}
		// buckets starting past the mark hold no rolled point yet
		var fresh, update []store.Rollup
		for _, b := range acc.rows() {
			if b.Bucket > after {
				fresh = append(fresh, b)
			} else {
				update = append(update, b)
			}
		}
		if err := es.InsertRollups(ctx, q, fresh); err != nil {
			return err
		}
		if err := es.AddRollups(ctx, q, update); err != nil {
			return err
		}
		through := sr.MaxIter
		if len(its) == rollChunk {
			through, more = its[len(its)-1], true
		}
		return es.SetRolledThrough(ctx, q, id, through)
	})
	return more, err
}
