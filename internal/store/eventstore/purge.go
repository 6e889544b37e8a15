package eventstore

import (
	"context"

	"github.com/trove-ml/trove/internal/store"
)

// deletedSeriesPrefix starts the task of a deleted series whose points
// await the purge: no task or model id has it, so no read reaches them,
// and the series keeps its id (a new series cannot take it over).
const deletedSeriesPrefix = "~deleted~"

// singleValueIter is the iteration of single-value scalars
// (events.SingleValueIter); points at or below it are never rolled up.
const singleValueIter int64 = -1 << 31

// SeriesToPurge lists up to limit deleted series whose points remain.
func (s *Store) SeriesToPurge(ctx context.Context, q store.Querier, limit int) ([]int64, error) {
	return seriesIDs(q.QueryContext(ctx, "SELECT id FROM event_series_purge ORDER BY id LIMIT ?", limit))
}

// PurgeSeries deletes up to chunk points of a deleted series (packed
// ones first, then those in each of pointTables), then up to chunk of
// its rollups; once none remain it deletes the series and reports done.
// Extras go with the series: a series id can be taken again once its row
// is gone (SQLite reuses the highest row id).
func (s *Store) PurgeSeries(ctx context.Context, q store.Querier, id int64, chunk int) (done bool, err error) {
	if n, err := s.purgeBlocks(ctx, q, id, chunk); err != nil || n > 0 {
		return false, err
	}
	for _, table := range s.pointTables() {
		res, err := q.ExecContext(ctx, "DELETE FROM "+table+" WHERE series = ? AND iter IN (SELECT iter FROM "+table+" WHERE series = ? ORDER BY iter LIMIT ?)", id, id, chunk)
		if err != nil {
			return false, err
		}
		if n, _ := res.RowsAffected(); n >= int64(chunk) {
			return false, nil
		}
	}
	// then its rollups, as many per call (a series of millions of points
	// has hundreds of thousands)
	res, err := q.ExecContext(ctx, "DELETE FROM event_scalar_rollups WHERE series = ? AND (level, bucket) IN (SELECT level, bucket FROM event_scalar_rollups WHERE series = ? ORDER BY level, bucket LIMIT ?)", id, id, chunk)
	if err != nil {
		return false, err
	}
	if n, _ := res.RowsAffected(); n >= int64(chunk) {
		return false, nil
	}
	s.series.changed(q, []int64{id}, nil)
	for _, stmt := range []string{
		"DELETE FROM event_scalar_extras WHERE series = ?",
		"DELETE FROM event_series WHERE id = ?",
		"DELETE FROM event_series_purge WHERE id = ?",
	} {
		if _, err := q.ExecContext(ctx, stmt, id); err != nil {
			return false, err
		}
	}
	return true, nil
}
