package store

import (
	"context"
)

// WriteConcurrency is how many write transactions the store runs at once:
// 1 on SQLite (its single writer connection), the write pool's size on
// PostgreSQL. Group commit sizes its writers by it.
func (db *DB) WriteConcurrency() int {
	return max(1, db.w.Stats().MaxOpenConnections)
}

// SeriesTouch is the new state of a series after a write.
type SeriesTouch struct {
	ID, MaxIter, RolledThrough, LastWTS int64
}

// TouchSeriesMany records the highest iteration, rollup mark and newest
// write time of many series with multi-row statements (one UPDATE per
// series was a large part of a small batch's write).
func (s *EventStore) TouchSeriesMany(ctx context.Context, q Querier, rows []SeriesTouch) error {
	return s.multiRows(ctx, q, "UPDATE event_series SET max_iter = v.column2, rolled_through = v.column3, last_wts = v.column4 FROM (",
		"(CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT))", 4,
		") AS v WHERE event_series.id = v.column1",
		len(rows), func(args []any, i int) []any {
			r := &rows[i]
			return append(args, r.ID, r.MaxIter, r.RolledThrough, r.LastWTS)
		})
}
