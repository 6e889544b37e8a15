package eventstore

import (
	"context"
	"slices"

	"github.com/trove-ml/trove/internal/store"
)

// SeriesTouch is the new state of a series after a write.
type SeriesTouch struct {
	ID, MaxIter, RolledThrough, LastWTS int64
	// Below is, for a series written the first time, the iteration just
	// below its first points: PostgreSQL packs its points from there, not
	// from the single-value iteration (the first points of a series are
	// not packed alone into a block of their own). The single-value
	// iteration otherwise.
	Below int64
}

// The multi-row series update. The join term reads "+v.column1": without
// the unary plus, SQLite plans the 512-row shape as a scan of every
// series with a lookup into the VALUES list, which made a group's one
// update cost more than all its points; with it, each row is found by
// its primary key (TestTouchSeriesUsesThePrimaryKey).
const (
	touchHead = "UPDATE event_series SET max_iter = v.column2, rolled_through = v.column3, last_wts = v.column4 FROM ("
	touchRow  = "(CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT))"
	touchTail = ") AS v WHERE event_series.id = +v.column1"
)

// TouchSeriesMany records the highest iteration, rollup mark and newest
// write time of many series with multi-row statements (one UPDATE per
// series was a large part of a small batch's write). Each series appears
// once in rows.
func (s *Store) TouchSeriesMany(ctx context.Context, q store.Querier, rows []SeriesTouch) error {
	var err error
	if pd, ok := s.d.(packedDialect); ok {
		if len(rows) > 0 {
			ids, maxIters, rolled, wts, below := make([]int64, len(rows)), make([]int64, len(rows)), make([]int64, len(rows)), make([]int64, len(rows)), make([]int64, len(rows))
			for i := range rows {
				r := &rows[i]
				ids[i], maxIters[i], rolled[i], wts[i], below[i] = r.ID, r.MaxIter, r.RolledThrough, r.LastWTS, max(r.Below, singleValueIter)
			}
			_, err = q.ExecContext(ctx, pd.touchSQL(), ids, maxIters, rolled, wts, below)
		}
	} else {
		err = s.multiRows(ctx, q, touchHead, touchRow, 4, touchTail,
			len(rows), func(args []any, i int) []any {
				r := &rows[i]
				return append(args, r.ID, r.MaxIter, r.RolledThrough, r.LastWTS)
			})
	}
	if err != nil || len(rows) == 0 {
		return err
	}
	// the series cache learns the new state once the transaction commits
	if cache := s.series.usable(q); cache != nil {
		gen := cache.generation()
		kept := slices.Clone(rows)
		store.AfterCommit(q, func() { cache.touched(gen, kept) })
	} else {
		ids := make([]int64, len(rows))
		for i, r := range rows {
			ids[i] = r.ID
		}
		s.series.changed(q, ids, nil)
	}
	return nil
}
