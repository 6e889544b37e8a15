package eventstore

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/trove-ml/trove/internal/store"
)

// noIter is the stored iteration of events sent without one.
const noIter = math.MinInt64

// MetricFilter selects one metric's events: of the listed variants, or of
// all its variants when Variants is empty.
type MetricFilter struct {
	Metric   string
	Variants []string
}

// metricCond renders filters as a condition on the metric and variant
// columns (the filters are OR-ed); "" selects everything.
func metricCond(fs []MetricFilter) (string, []any) {
	if len(fs) == 0 {
		return "", nil
	}
	parts := make([]string, 0, len(fs))
	var args []any
	for _, f := range fs {
		if len(f.Variants) == 0 {
			parts = append(parts, "metric = ?")
			args = append(args, f.Metric)
			continue
		}
		parts = append(parts, "(metric = ? AND variant IN ("+store.Placeholders(len(f.Variants))+"))")
		args = append(args, f.Metric)
		args = append(args, store.Args(f.Variants)...)
	}
	return "(" + strings.Join(parts, " OR ") + ")", args
}

// ScalarPoint is one stored scalar point.
type ScalarPoint struct {
	Series  int64
	Iter    int64
	Value   float64
	TS, WTS int64
	// Worker is nil when it is the series' worker.
	Worker, Extra *string
}

// PointsByIter reads up to limit points of a series with an iteration, in
// iteration order from `from` (desc: downwards), from itself included when
// inclusive.
func (s *Store) PointsByIter(ctx context.Context, q store.Querier, series, from int64, inclusive, desc bool, limit int) ([]ScalarPoint, error) {
	op, order := ">", "ASC"
	if desc {
		op, order = "<", "DESC"
	}
	if inclusive {
		op += "="
	}
	// the source's range is the read's own: a one-point read unpacks only
	// the first block in it
	lo, hi := from, int64(lastIter)
	if desc {
		lo, hi = noIter+1, from
	}
	switch {
	case inclusive:
	case desc && hi > noIter:
		hi--
	case !desc && lo < lastIter:
		lo++
	}
	src, args := s.seriesScalars(series, lo, hi, limit, desc)
	return scanPoints(q.QueryContext(ctx, "SELECT "+pointCols+" FROM "+src+pointJoins+" WHERE p.series = ? AND p.iter > ? AND p.iter "+op+" ? ORDER BY p.iter "+order+" LIMIT ?",
		append(args, series, int64(noIter), from, limit)...))
}

// PointsPage reads up to limit points of a series with an iteration, in
// iteration order, skipping the first offset (for callers whose pages
// are offsets, as MLflow's get-history).
func (s *Store) PointsPage(ctx context.Context, q store.Querier, series int64, offset, limit int) ([]ScalarPoint, error) {
	src, args := s.seriesScalars(series, noIter+1, lastIter, offset+limit, false)
	return scanPoints(q.QueryContext(ctx, "SELECT "+pointCols+" FROM "+src+pointJoins+" WHERE p.series = ? AND p.iter > ? ORDER BY p.iter LIMIT ? OFFSET ?",
		append(args, series, int64(noIter), limit, offset)...))
}

// PointsByTime reads up to limit points of a series with an iteration in
// (ts, iter) order after (ts, iter) (iter = MinInt64: every point of that
// time; sameTS false: only later times).
func (s *Store) PointsByTime(ctx context.Context, q store.Querier, series, ts, iter int64, sameTS bool, limit int) ([]ScalarPoint, error) {
	// no index on time: every point of the series is read either way
	src, args := s.seriesScalars(series, noIter+1, lastIter, 0, false)
	if !sameTS {
		return scanPoints(q.QueryContext(ctx, "SELECT "+pointCols+" FROM "+src+pointJoins+" WHERE p.series = ? AND p.iter > ? AND p.dts + s.ts0 > ? ORDER BY p.dts, p.iter LIMIT ?",
			append(args, series, int64(noIter), ts, limit)...))
	}
	return scanPoints(q.QueryContext(ctx, "SELECT "+pointCols+" FROM "+src+pointJoins+" WHERE p.series = ? AND p.iter > ? AND (p.dts + s.ts0 > ? OR (p.dts + s.ts0 = ? AND p.iter >= ?)) ORDER BY p.dts, p.iter LIMIT ?",
		append(args, series, int64(noIter), ts, ts, iter, limit)...))
}

// PointsWithoutIter reads the points sent without iteration of series
// (never packed).
func (s *Store) PointsWithoutIter(ctx context.Context, q store.Querier, series []int64) ([]ScalarPoint, error) {
	if len(series) == 0 {
		return nil, nil
	}
	src, args := s.unpackedFrom("IN ("+store.Placeholders(len(series))+")", store.Args(series), noIter, noIter, 0, false)
	return scanPoints(q.QueryContext(ctx, "SELECT "+pointCols+" FROM "+src+pointJoins+" WHERE p.iter = ? AND p.series IN ("+store.Placeholders(len(series))+") ORDER BY p.series",
		append(append(args, int64(noIter)), store.Args(series)...)...))
}

// PointsAt reads the points of series at one iteration.
func (s *Store) PointsAt(ctx context.Context, q store.Querier, series []int64, iter int64) ([]ScalarPoint, error) {
	if len(series) == 0 {
		return nil, nil
	}
	src, args := s.scalarsFrom("IN ("+store.Placeholders(len(series))+")", store.Args(series), iter, iter, 0, false)
	return scanPoints(q.QueryContext(ctx, "SELECT "+pointCols+" FROM "+src+pointJoins+" WHERE p.iter = ? AND p.series IN ("+store.Placeholders(len(series))+") ORDER BY p.series",
		append(append(args, iter), store.Args(series)...)...))
}

// LastValues reads up to limit values of a series, highest iterations
// first, only values above zero when positive.
func (s *Store) LastValues(ctx context.Context, q store.Querier, series int64, positive bool, limit int) ([]float64, error) {
	cond := ""
	if positive {
		cond = " AND value > 0"
	}
	pick := limit
	if positive {
		pick = 0 // the blocks' counts do not say how many values are positive
	}
	src, args := s.seriesScalars(series, noIter+1, lastIter, pick, true)
	rows, err := q.QueryContext(ctx, "SELECT value FROM "+src+" p WHERE series = ? AND iter > ?"+cond+" ORDER BY iter DESC LIMIT ?", append(args, series, int64(noIter), limit)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []float64
	for rows.Next() {
		var v float64
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// SeriesRange is what histogram planning needs of a series: its number of
// points and key range, single values and points without iteration left
// out.
type SeriesRange struct {
	Count    int64
	Min, Max int64
}

// IterRange reads a series' point count above minIter (its coarsest
// rollup for the points up to rolled, the points themselves after it) and
// iteration range (two index seeks).
func (s *Store) IterRange(ctx context.Context, q store.Querier, series int64, coarsest int, minIter, rolled int64) (SeriesRange, error) {
	var r SeriesRange
	var cnt sql.NullInt64
	var tail int64
	if err := q.QueryRowContext(ctx, "SELECT (SELECT SUM(cnt) FROM event_scalar_rollups WHERE series = ? AND level = ?), "+
		s.sumOverPointTables("(SELECT COUNT(*) FROM %s WHERE series = ? AND iter > ? AND iter > ?)"),
		append([]any{series, coarsest}, s.repeatArgs(series, rolled, minIter)...)...).Scan(&cnt, &tail); err != nil {
		return r, err
	}
	r.Count = cnt.Int64 + tail
	if r.Count == 0 {
		return r, nil
	}
	if pd, ok := s.d.(packedDialect); ok {
		err := q.QueryRowContext(ctx, pd.iterBoundsSQL(), series, minIter, minIter, minIter, series, minIter, series, series).Scan(&r.Min, &r.Max)
		return r, err
	}
	// on SQLite each table's first and last, the staged points included
	err := q.QueryRowContext(ctx, "SELECT MIN(lo), MAX(hi) FROM ("+s.unionOverPointTables(
		"SELECT (SELECT iter FROM %[1]s WHERE series = ? AND iter > ? ORDER BY iter LIMIT 1) AS lo, (SELECT iter FROM %[1]s WHERE series = ? ORDER BY iter DESC LIMIT 1) AS hi")+") b",
		s.repeatArgs(series, minIter, series)...).Scan(&r.Min, &r.Max)
	return r, err
}

// TimeRange reads a series' point count and time range (a scan of the
// series: there is no index on time).
func (s *Store) TimeRange(ctx context.Context, q store.Querier, series, minIter int64) (SeriesRange, error) {
	var r SeriesRange
	var lo, hi sql.NullInt64
	src, args := s.seriesScalars(series, minIter+1, lastIter, 0, false)
	// the base time once, not joined to every point
	err := q.QueryRowContext(ctx, "SELECT COUNT(*), MIN(p.dts) + (SELECT ts0 FROM event_series WHERE id = ?), MAX(p.dts) + (SELECT ts0 FROM event_series WHERE id = ?) FROM "+src+" p WHERE p.series = ? AND p.iter > ?",
		append(append([]any{series, series}, args...), series, minIter)...).Scan(&r.Count, &lo, &hi)
	r.Min, r.Max = lo.Int64, hi.Int64
	return r, err
}

// HistPoint is one histogram bucket: its first key and mean value.
type HistPoint struct {
	X int64
	Y float64
}

func scanHist(rows *sql.Rows, err error) ([]HistPoint, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []HistPoint
	for rows.Next() {
		var p HistPoint
		if err := rows.Scan(&p.X, &p.Y); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// floorExpr is the first key of expr's bucket of width interval, floored
// for negative keys too, and its arguments.
func floorExpr(expr string, interval int64, nonNegative bool) (string, []any) {
	if nonNegative {
		return "(" + expr + " - " + expr + " % ?)", []any{interval}
	}
	return "(" + expr + " - (((" + expr + " % ?) + ?) % ?))", []any{interval, interval, interval}
}

// HistBucket is a histogram bucket's sum and count of values.
type HistBucket struct {
	X   int64
	Sum float64
	Cnt int64
}

func scanBuckets(rows *sql.Rows, err error) ([]HistBucket, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []HistBucket
	for rows.Next() {
		var b HistBucket
		if err := rows.Scan(&b.X, &b.Sum, &b.Cnt); err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// RollupRead asks for a series' rolled-up points summed in buckets of
// Interval iterations from its rollups of Level (Interval a multiple of
// 2^Level; NonNegative when no iteration of the series is below 0).
type RollupRead struct {
	Series      int64
	Level       int
	Interval    int64
	NonNegative bool
}

// rollupReadChunk bounds the series one rollup statement reads.
const rollupReadChunk = 100

// HistogramFromRollups sums a series' rolled-up points in buckets of
// interval iterations from the rollups of level (see RollupRead).
func (s *Store) HistogramFromRollups(ctx context.Context, q store.Querier, series int64, level int, interval int64, nonNegative bool) ([]HistBucket, error) {
	out, err := s.RollupHistograms(ctx, q, []RollupRead{{Series: series, Level: level, Interval: interval, NonNegative: nonNegative}})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// RollupHistograms answers reads (one result per read, in their order)
// with one statement per level and up to rollupReadChunk series, not one
// per series (a round trip and a plan each). The statement asks for no
// order: a fresh task's rollups are spread over the heap pages of every
// series and level written beside them, and until VACUUM has marked those
// pages all-visible PostgreSQL reads them with a bitmap scan, after which
// an ORDER BY sorted every row. The rows come nearly in key order anyway;
// they are put in it here (cheap on nearly sorted rows) and summed in that
// order, as a GROUP BY over the wider buckets would (that made the
// database hash and sort them). Once the pages are all-visible the
// covering key (PostgreSQL, migration 0103) serves the read alone.
func (s *Store) RollupHistograms(ctx context.Context, q store.Querier, reads []RollupRead) ([][]HistBucket, error) {
	out := make([][]HistBucket, len(reads))
	byLevel := map[int][]int{}
	var levels []int
	for i, r := range reads {
		if _, ok := byLevel[r.Level]; !ok {
			levels = append(levels, r.Level)
		}
		byLevel[r.Level] = append(byLevel[r.Level], i)
	}
	for _, level := range levels {
		idx := byLevel[level]
		for len(idx) > 0 {
			n := min(len(idx), rollupReadChunk)
			if err := s.readRollups(ctx, q, level, reads, idx[:n], out); err != nil {
				return nil, err
			}
			idx = idx[n:]
		}
	}
	return out, nil
}

// rollupRow is one stored rollup bucket of a series.
type rollupRow struct {
	bucket int64
	total  float64
	cnt    int64
}

// readRollups reads the rollups of level of the reads at idx (distinct
// series or not) into out.
func (s *Store) readRollups(ctx context.Context, q store.Querier, level int, reads []RollupRead, idx []int, out [][]HistBucket) error {
	rowsOf := map[int64][]rollupRow{}
	var ids []any
	for _, i := range idx {
		id := reads[i].Series
		if _, ok := rowsOf[id]; !ok {
			rowsOf[id] = nil
			ids = append(ids, id)
		}
	}
	if err := scanRollups(ctx, q, level, ids, rowsOf); err != nil {
		return err
	}
	for id, rs := range rowsOf {
		rowsOf[id] = inBucketOrder(rs, int64(1)<<level)
	}
	for _, i := range idx {
		r := reads[i]
		var b []HistBucket
		for _, row := range rowsOf[r.Series] {
			b = addToBucket(b, floorTo(row.bucket, r.Interval, r.NonNegative), row.total, row.cnt)
		}
		out[i] = b
	}
	return nil
}

func compareBuckets(a, b rollupRow) int { return cmp.Compare(a.bucket, b.bucket) }

// inBucketOrder puts a series' rollup rows of one level (buckets width
// apart, each at most once: the key) in bucket order: rows spanning few
// more buckets than they are go straight to their slot (a sort of the
// rows of a fresh task, which come nearly in order, took a twentieth of
// the call), others are sorted.
func inBucketOrder(rs []rollupRow, width int64) []rollupRow {
	if len(rs) < 2 || slices.IsSortedFunc(rs, compareBuckets) {
		return rs
	}
	lo, hi := rs[0].bucket, rs[0].bucket
	for _, r := range rs[1:] {
		lo, hi = min(lo, r.bucket), max(hi, r.bucket)
	}
	span := (hi-lo)/width + 1
	if hi-lo < 0 || span > 2*int64(len(rs))+64 {
		slices.SortFunc(rs, compareBuckets)
		return rs
	}
	slots := make([]rollupRow, span)
	used := make([]bool, span)
	for _, r := range rs {
		off := r.bucket - lo
		i := off / width
		if off%width != 0 || used[i] { // not the level's buckets after all
			slices.SortFunc(rs, compareBuckets)
			return rs
		}
		slots[i], used[i] = r, true
	}
	out := rs[:0]
	for i, ok := range used {
		if ok {
			out = append(out, slots[i])
		}
	}
	return out
}

// scanRollups reads the rollups of level of the series ids into rowsOf,
// in the order the database finds them.
func scanRollups(ctx context.Context, q store.Querier, level int, ids []any, rowsOf map[int64][]rollupRow) error {
	rows, err := q.QueryContext(ctx, "SELECT series, bucket, total, cnt FROM event_scalar_rollups WHERE level = ? AND series IN ("+store.Placeholders(len(ids))+")",
		append([]any{level}, ids...)...)
	if err != nil {
		return err
	}
	defer rows.Close()
	// scanned into any: the driver's int64 and float64 are taken as they
	// are, where typed destinations go through reflection per value
	var vs [4]any
	dest := []any{&vs[0], &vs[1], &vs[2], &vs[3]}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		series, e1 := anyInt64(vs[0])
		bucket, e2 := anyInt64(vs[1])
		total, e3 := anyFloat64(vs[2])
		cnt, e4 := anyInt64(vs[3])
		if err := errors.Join(e1, e2, e3, e4); err != nil {
			return err
		}
		rowsOf[series] = append(rowsOf[series], rollupRow{bucket: bucket, total: total, cnt: cnt})
	}
	return rows.Err()
}

// addToBucket adds a rollup row to the last bucket when it starts at x
// (rows come in key order), else starts a new one.
func addToBucket(out []HistBucket, x int64, total float64, cnt int64) []HistBucket {
	if n := len(out); n > 0 && out[n-1].X == x {
		out[n-1].Sum += total
		out[n-1].Cnt += cnt
		return out
	}
	return append(out, HistBucket{X: x, Sum: total, Cnt: cnt})
}

// anyInt64 is an integer column scanned into an any.
func anyInt64(v any) (int64, error) {
	switch x := v.(type) {
	case int64:
		return x, nil
	case int32:
		return int64(x), nil
	case int16:
		return int64(x), nil
	}
	return 0, fmt.Errorf("rollups: integer column holds %T", v)
}

// anyFloat64 is a floating-point column scanned into an any.
func anyFloat64(v any) (float64, error) {
	switch x := v.(type) {
	case float64:
		return x, nil
	case float32:
		return float64(x), nil
	case int64: // SQLite hands back a REAL that holds an integer as is
		return float64(x), nil
	}
	return 0, fmt.Errorf("rollups: real column holds %T", v)
}

// floorTo is the first key of k's bucket of width interval, as floorExpr
// computes it in SQL.
func floorTo(k, interval int64, nonNegative bool) int64 {
	if interval <= 1 {
		return k
	}
	if nonNegative {
		return k - k%interval
	}
	return k - ((k%interval)+interval)%interval
}

// HistogramTail sums a series' points after iteration after (not yet in
// the rollups) in buckets of interval iterations.
func (s *Store) HistogramTail(ctx context.Context, q store.Querier, series, after, interval int64) ([]HistBucket, error) {
	b, args := floorExpr("iter", interval, after >= -1)
	src, sargs := s.unpackedFrom("= ?", []any{series}, after+1, lastIter, 0, false)
	return scanBuckets(q.QueryContext(ctx, "SELECT "+b+" AS x, SUM(value), COUNT(*) FROM "+src+" p WHERE series = ? AND iter > ? GROUP BY x ORDER BY x",
		append(append(args, sargs...), series, after)...))
}

// HistogramFromPoints averages a series' points above minIter in buckets
// of interval keys (iterations, or event times when byTime); interval 1
// by iteration returns the points themselves.
func (s *Store) HistogramFromPoints(ctx context.Context, q store.Querier, series int64, interval int64, byTime bool, minIter int64) ([]HistPoint, error) {
	src, sargs := s.seriesScalars(series, minIter+1, lastIter, 0, false)
	if interval <= 1 && !byTime {
		return scanHist(q.QueryContext(ctx, "SELECT iter, value FROM "+src+" p WHERE series = ? AND iter > ? ORDER BY iter", append(sargs, series, minIter)...))
	}
	key := "p.iter"
	if byTime {
		// the base time once, not joined to every point
		key = "(p.dts + (SELECT ts0 FROM event_series WHERE id = ?))"
	}
	b, widths := floorExpr(key, interval, false)
	var args []any
	if byTime {
		args = []any{series, series} // the key's two places in b, before the widths
	}
	args = append(append(append(args, widths...), sargs...), series, minIter)
	return scanHist(q.QueryContext(ctx, "SELECT "+b+" AS x, AVG(p.value) FROM "+src+" p WHERE p.series = ? AND p.iter > ? GROUP BY x ORDER BY x",
		args...))
}

// MaxIters returns the highest iteration of each listed entity over every
// event type (entities without events are absent).
func (s *Store) MaxIters(ctx context.Context, q store.Querier, tasks []string) (map[string]int64, error) {
	out := map[string]int64{}
	if len(tasks) == 0 {
		return out, nil
	}
	in := "task IN (" + store.Placeholders(len(tasks)) + ")"
	queries := []string{
		"SELECT task, MAX(max_iter) FROM event_series WHERE " + in + " AND max_iter > ? GROUP BY task",
		"SELECT task, MAX(iter) FROM event_docs WHERE " + in + " AND iter > ? GROUP BY task",
		"SELECT task, MAX(iter) FROM event_logs WHERE " + in + " AND iter IS NOT NULL AND iter > ? GROUP BY task",
	}
	for _, qs := range queries {
		rows, err := q.QueryContext(ctx, qs, append(store.Args(tasks), int64(noIter))...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var t string
			var m int64
			if err := rows.Scan(&t, &m); err != nil {
				rows.Close()
				return nil, err
			}
			if cur, ok := out[t]; !ok || m > cur {
				out[t] = m
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// CountPoints counts the points of series (every point, single values and
// points without iteration included), up to limit: series by series, each
// an index range that stops at the limit, plus the counts of its packed
// blocks (PostgreSQL).
func (s *Store) CountPoints(ctx context.Context, q store.Querier, series []int64, limit int) (int, error) {
	total := 0
	for _, id := range series {
		if total >= limit {
			break
		}
		var n, packed int
		if err := q.QueryRowContext(ctx, "SELECT "+s.sumOverPointTables("(SELECT COUNT(*) FROM (SELECT 1 FROM %s WHERE series = ? ORDER BY iter LIMIT ?) c)"),
			s.repeatArgs(id, limit-total)...).Scan(&n); err != nil {
			return 0, err
		}
		if pd, ok := s.d.(packedDialect); ok {
			if err := q.QueryRowContext(ctx, pd.blockCountSQL("= ?"), id).Scan(&packed); err != nil {
				return 0, err
			}
		}
		total += min(n+packed, limit-total)
	}
	return total, nil
}

// CountPointsWithIter counts the points of series that have an iteration
// (packed points all have one).
func (s *Store) CountPointsWithIter(ctx context.Context, q store.Querier, series []int64) (int, error) {
	if len(series) == 0 {
		return 0, nil
	}
	var n, packed int
	in := "IN (" + store.Placeholders(len(series)) + ")"
	if err := q.QueryRowContext(ctx, "SELECT "+s.sumOverPointTables("(SELECT COUNT(*) FROM %s WHERE iter > ? AND series "+in+")"),
		s.repeatArgs(append([]any{int64(noIter)}, store.Args(series)...)...)...).Scan(&n); err != nil {
		return 0, err
	}
	if pd, ok := s.d.(packedDialect); ok {
		if err := q.QueryRowContext(ctx, pd.blockCountSQL(in), store.Args(series)...).Scan(&packed); err != nil {
			return 0, err
		}
	}
	return n + packed, nil
}
