package events

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// Roller completes scalar rollups that are behind their points. Ingest
// keeps a series' rollups in step with its points (rolled_through =
// max_iter) when a batch brings many of its points; a series whose mark
// is behind (small batches, rollups never built, e.g. after a bulk load
// straight into the table) is caught up here: every couple of seconds the
// roller reads its points past the mark, adds them to the buckets of every
// level and moves the mark, many series per transaction. Histograms read
// the rollups up to the mark and group the points past it themselves, so
// they are exact at any time.
type Roller struct {
	DB *store.DB
	// Lag: a series still being written is rolled up only once its
	// highest iteration is Lag past its mark (0: every series behind).
	// Histograms read at most that many points of it past the mark.
	Lag int64
	// Idle: a series not written for this long is rolled up whatever
	// its lag (with Lag > 0).
	Idle time.Duration
	// Now is the clock of Idle (time.Now when nil).
	Now func() time.Time
}

// NewRoller is the roller a server runs: series being written in small
// batches are rolled up every RollLag iterations or after a minute idle.
func NewRoller(db *store.DB, now func() time.Time) *Roller {
	return &Roller{DB: db, Lag: RollLag, Idle: time.Minute, Now: now}
}

// RollLag is the server's Roller.Lag.
const RollLag = 256

const (
	// rollSeriesPerRun bounds the series one run visits.
	rollSeriesPerRun = 1000
	// rollChunk bounds the points rolled up in one transaction.
	rollChunk = 100000
	// rollSeriesPerTx bounds the series rolled up in one transaction.
	rollSeriesPerTx = 250
)

// Run rolls up the series that have points past their mark.
func (r *Roller) Run(ctx context.Context) error {
	idleSince := int64(math.MaxInt64)
	if r.Lag > 0 {
		now := time.Now
		if r.Now != nil {
			now = r.Now
		}
		idleSince = now().Add(-r.Idle).UnixMilli()
	}
	ids, err := eventstore.Of(r.DB).SeriesBehind(ctx, r.DB.Read(), r.Lag, idleSince, rollSeriesPerRun)
	if err != nil {
		return err
	}
	for len(ids) > 0 && ctx.Err() == nil {
		done, err := r.rollSome(ctx, ids)
		if err != nil {
			return err
		}
		ids = ids[done:]
	}
	return ctx.Err()
}

// rollSome rolls up series from the start of ids in one transaction and
// returns how many it finished.
func (r *Roller) rollSome(ctx context.Context, ids []int64) (int, error) {
	done := 0
	err := r.DB.Tx(ctx, func(q store.Querier) error {
		done = 0
		budget := rollChunk
		for done < len(ids) && done < rollSeriesPerTx && budget > 0 {
			n, more, err := r.roll(ctx, q, ids[done], budget)
			if err != nil || more {
				return err
			}
			budget -= n
			done++
		}
		return nil
	})
	return done, err
}

// roll adds up to limit points of a series to its rollups; it returns
// how many it read and whether points remain.
func (r *Roller) roll(ctx context.Context, q store.Querier, id int64, limit int) (int, bool, error) {
	es := eventstore.Of(r.DB)
	sr, err := es.LockSeries(ctx, q, id)
	if errors.Is(err, store.ErrNotFound) {
		return 0, false, nil // deleted meanwhile
	}
	if err != nil || sr.MaxIter <= sr.RolledThrough {
		return 0, false, err
	}
	after := rolledThrough(sr)
	its, vals, err := es.IterValues(ctx, q, id, after, limit)
	if err != nil {
		return 0, false, err
	}
	acc := newRollupAcc(id)
	for i, it := range its {
		acc.add(it, 1, vals[i])
	}
	// buckets starting past the mark hold no rolled point yet
	var fresh, update []eventstore.Rollup
	for _, b := range acc.rows() {
		if b.Bucket > after {
			fresh = append(fresh, b)
		} else {
			update = append(update, b)
		}
	}
	if err := es.InsertRollups(ctx, q, fresh); err != nil {
		return 0, false, err
	}
	if err := es.AddRollups(ctx, q, update); err != nil {
		return 0, false, err
	}
	through, more := sr.MaxIter, false
	if len(its) == limit {
		through, more = its[len(its)-1], true
	}
	return len(its), more, es.SetRolledThrough(ctx, q, id, through)
}
