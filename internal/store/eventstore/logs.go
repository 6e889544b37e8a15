package eventstore

import (
	"context"
	"database/sql"

	"github.com/trove-ml/trove/internal/store"
)

// LogQuery selects a task's log events in (timestamp, id) order, or with
// WithIter in (iter, timestamp, id) order.
type LogQuery struct {
	Task    string
	Metrics []MetricFilter
	// From bounds the timestamp strictly (below when Desc, else above).
	From *int64
	// AtTS with AfterID selects the events of one timestamp past AfterID
	// in the order (to complete a page on its last timestamp).
	AtTS    *int64
	AfterID int64
	// After continues past the position (AfterIter, AfterTS, AfterID);
	// AfterIter counts only with WithIter.
	After              bool
	AfterIter, AfterTS int64
	// WithIter selects only events with an iteration, WithoutIter only
	// events without.
	WithIter, WithoutIter bool
	Desc                  bool
	Limit                 int
}

const logCols = "id, task, ts, wts, iter, level, worker, msg, metric, variant, extra"

func (lq *LogQuery) where() (string, []any) {
	where := "task = ?"
	args := []any{lq.Task}
	if c, a := metricCond(lq.Metrics); c != "" {
		where += " AND " + c
		args = append(args, a...)
	}
	op := ">"
	if lq.Desc {
		op = "<"
	}
	if lq.From != nil {
		where += " AND ts " + op + " ?"
		args = append(args, *lq.From)
	}
	if lq.AtTS != nil {
		where += " AND ts = ? AND id " + op + " ?"
		args = append(args, *lq.AtTS, lq.AfterID)
	}
	switch {
	case lq.WithoutIter:
		where += " AND iter IS NULL"
	case lq.WithIter:
		where += " AND iter IS NOT NULL"
	}
	if lq.After && lq.WithIter {
		where += " AND (iter " + op + " ? OR (iter = ? AND (ts > ? OR (ts = ? AND id > ?))))"
		args = append(args, lq.AfterIter, lq.AfterIter, lq.AfterTS, lq.AfterTS, lq.AfterID)
	} else if lq.After {
		where += " AND (ts " + op + " ? OR (ts = ? AND id " + op + " ?))"
		args = append(args, lq.AfterTS, lq.AfterTS, lq.AfterID)
	}
	return where, args
}

// Logs reads log events: by (ts, id), descending when Desc; with WithIter
// by (iter, ts, id), iterations descending when Desc.
func (s *Store) Logs(ctx context.Context, q store.Querier, lq LogQuery) ([]LogRow, error) {
	where, args := lq.where()
	dir := "ASC"
	if lq.Desc {
		dir = "DESC"
	}
	order := "ts " + dir + ", id " + dir
	if lq.WithIter {
		order = "iter " + dir + ", ts ASC, id ASC"
	}
	query := "SELECT " + logCols + " FROM event_logs WHERE " + where + " ORDER BY " + order
	if lq.Limit > 0 {
		query += " LIMIT ?"
		args = append(args, lq.Limit)
	}
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []LogRow
	for rows.Next() {
		var r LogRow
		var it sql.NullInt64
		if err := rows.Scan(&r.ID, &r.Task, &r.TS, &r.WTS, &it, &r.Level, &r.Worker, &r.Msg, &r.Metric, &r.Variant, &r.Extra); err != nil {
			return nil, err
		}
		if it.Valid {
			v := it.Int64
			r.Iter = &v
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// CountLogs counts a task's log events matching the metrics, up to limit.
func (s *Store) CountLogs(ctx context.Context, q store.Querier, task string, metrics []MetricFilter, limit int) (int, error) {
	lq := LogQuery{Task: task, Metrics: metrics}
	where, args := lq.where()
	var n int
	// ordered like the index, so the planner walks it and stops at limit
	// (a bitmap scan would read every matching entry first)
	err := q.QueryRowContext(ctx, "SELECT COUNT(*) FROM (SELECT 1 FROM event_logs WHERE "+where+" ORDER BY ts LIMIT ?) c", append(args, limit)...).Scan(&n)
	return n, err
}

// LogDeletion selects the log events of a task that DeleteLogs removes:
// those older than Before (epoch ms) when given, only those of the Include
// metrics when given, never those of the Exclude metrics.
type LogDeletion struct {
	Before           *int64
	Include, Exclude []string
}

// DeleteLogs deletes the log events of a task that del selects.
func (s *Store) DeleteLogs(ctx context.Context, q store.Querier, task string, del LogDeletion) (int64, error) {
	query, args := "DELETE FROM event_logs WHERE task = ?", []any{task}
	if del.Before != nil {
		query += " AND ts < ?"
		args = append(args, *del.Before)
	}
	if len(del.Include) > 0 {
		query += " AND metric IN (" + store.Placeholders(len(del.Include)) + ")"
		args = append(args, store.Args(del.Include)...)
	}
	if len(del.Exclude) > 0 {
		// a log line without a metric is never excluded
		query += " AND (metric IS NULL OR metric NOT IN (" + store.Placeholders(len(del.Exclude)) + "))"
		args = append(args, store.Args(del.Exclude)...)
	}
	res, err := q.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// DeleteFor deletes every event of the tasks or models and returns how
// many it deleted (scalar points, documents and logs). Scalar points are
// deleted later, in chunks (see PurgeSeries): their series are renamed out
// of the tasks' reach and queued for the purge, so that deleting a task of
// millions of points does not hold the writer.
func (s *Store) DeleteFor(ctx context.Context, q store.Querier, ids []string) (int64, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	in := "(" + store.Placeholders(len(ids)) + ")"
	args := store.Args(ids)
	var total int64
	series := "SELECT id FROM event_series WHERE task IN " + in
	// The points are counted from the rollups (every point between the
	// single-value mark and a series' rolled_through is in each level
	// once) plus the points outside them, not by reading every point. The
	// two outside ranges are counted apart: joined by OR they made SQLite
	// read every point of the series (4 s for 10M points).
	if err := q.QueryRowContext(ctx, `SELECT COALESCE(SUM(
		COALESCE((SELECT SUM(r.cnt) FROM event_scalar_rollups r WHERE r.series = s.id AND r.level = (SELECT MAX(level) FROM event_scalar_rollups WHERE series = s.id)), 0)
		+ `+s.sumOverPointTables("(SELECT COUNT(*) FROM %[1]s p WHERE p.series = s.id AND p.iter > s.rolled_through) + (SELECT COUNT(*) FROM %[1]s p WHERE p.series = s.id AND p.iter <= ?)")+`), 0)
		FROM event_series s WHERE s.task IN `+in, append(s.repeatArgs(singleValueIter), args...)...).Scan(&total); err != nil {
		return 0, err
	}
	for _, stmt := range []string{
		"DELETE FROM event_docs WHERE task IN " + in,
		"DELETE FROM event_logs WHERE task IN " + in,
	} {
		res, err := q.ExecContext(ctx, stmt, args...)
		if err != nil {
			return 0, err
		}
		n, _ := res.RowsAffected()
		total += n
	}
	// The rollups stay with their series until the purge too: a task of
	// 10M points has some 400,000 of them, and deleting them here held
	// the writer for seconds.
	s.series.changed(q, nil, ids)
	for _, stmt := range []string{
		"INSERT INTO event_series_purge (id) " + series,
		"UPDATE event_series SET task = '" + deletedSeriesPrefix + "' || CAST(id AS TEXT), rolled_through = max_iter WHERE task IN " + in,
	} {
		if _, err := q.ExecContext(ctx, stmt, args...); err != nil {
			return 0, err
		}
	}
	return total, nil
}
