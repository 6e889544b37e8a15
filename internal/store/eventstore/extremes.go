package eventstore

import (
	"context"
	"database/sql"
	"errors"

	"github.com/trove-ml/trove/internal/store"
)

// Histograms of a key range with each bucket's extremes: the reads behind
// the optional x_min, x_max and extremes of the scalar histograms
// (events.HistogramRange). They group the points themselves, over the
// range only, so a bucket's smallest and largest value are exact and a
// read of a narrow range costs only its points.

// KeyRange bounds a read to the points with lo <= key <= hi (iterations,
// or event times in epoch ms when ByTime).
type KeyRange struct {
	Lo, Hi int64
	ByTime bool
}

// rangeCond is the condition of r on a series' points (p) and its
// arguments; series points keep their event time as an offset from ts0.
func (r KeyRange) cond(ts0 int64) (string, []any) {
	if r.ByTime {
		return "p.dts >= ? AND p.dts <= ?", []any{clampSub(r.Lo, ts0), clampSub(r.Hi, ts0)}
	}
	return "p.iter >= ? AND p.iter <= ?", []any{r.Lo, r.Hi}
}

// iters is the iteration range a read of r can reach (all of them by time:
// there is no index on time).
func (r KeyRange) iters(minIter int64) (int64, int64) {
	if r.ByTime {
		return minIter + 1, lastIter
	}
	return max(r.Lo, minIter+1), r.Hi
}

// clampSub is a - b without wrapping around.
func clampSub(a, b int64) int64 {
	d := a - b
	if (b > 0 && d > a) || (b < 0 && d < a) {
		if b > 0 {
			return noIter
		}
		return lastIter
	}
	return d
}

// RangeOf reads the count and key range of a series' points above minIter
// within r (single values and points without iteration left out).
func (s *Store) RangeOf(ctx context.Context, q store.Querier, sr *Series, minIter int64, r KeyRange) (SeriesRange, error) {
	var out SeriesRange
	var lo, hi sql.NullInt64
	ilo, ihi := r.iters(minIter)
	if ilo > ihi {
		return out, nil
	}
	src, args := s.seriesScalars(sr.ID, ilo, ihi, 0, false)
	cond, cargs := r.cond(sr.TS0)
	key := "p.iter"
	if r.ByTime {
		key = "p.dts"
	}
	err := q.QueryRowContext(ctx, "SELECT COUNT(*), MIN("+key+"), MAX("+key+") FROM "+src+" p WHERE p.series = ? AND p.iter > ? AND "+cond,
		append(append(args, sr.ID, minIter), cargs...)...).Scan(&out.Count, &lo, &hi)
	if err != nil || out.Count == 0 {
		return SeriesRange{}, err
	}
	out.Min, out.Max = lo.Int64, hi.Int64
	if r.ByTime {
		out.Min += sr.TS0
		out.Max += sr.TS0
	}
	return out, nil
}

// ExtremeBucket is one bucket of a range histogram: its first key, the
// mean, smallest and largest value of its points and their number.
type ExtremeBucket struct {
	X            int64
	Mean, Lo, Hi float64
	Cnt          int64
}

// HistogramExtremes groups a series' points above minIter within r in
// buckets of interval keys (bucket starts are multiples of interval, as
// the other histograms have them), each with its mean and extremes, in
// key order. Interval 1 by iteration gives the points themselves.
func (s *Store) HistogramExtremes(ctx context.Context, q store.Querier, sr *Series, minIter int64, r KeyRange, interval int64) ([]ExtremeBucket, error) {
	ilo, ihi := r.iters(minIter)
	if ilo > ihi {
		return nil, nil
	}
	src, sargs := s.seriesScalars(sr.ID, ilo, ihi, 0, false)
	cond, cargs := r.cond(sr.TS0)
	var rows *sql.Rows
	var err error
	if !r.ByTime && interval > 1 {
		if out, ok, err := s.extremesByIter(ctx, q, sr, minIter, r, interval, src, sargs, cond, cargs); ok || err != nil {
			return out, err
		}
	}
	if interval <= 1 && !r.ByTime {
		rows, err = q.QueryContext(ctx, "SELECT p.iter, p.value, p.value, p.value, 1 FROM "+src+" p WHERE p.series = ? AND p.iter > ? AND "+cond+" ORDER BY p.iter",
			append(append(sargs, sr.ID, minIter), cargs...)...)
	} else {
		key, kargs := "p.iter", []any(nil)
		if r.ByTime {
			// the series' base time is a constant of the read
			key, kargs = "(p.dts + ?)", []any{sr.TS0}
		}
		b, widths := floorExpr(key, interval, false)
		var args []any
		if r.ByTime {
			args = append(args, kargs...)
			args = append(args, kargs...)
		}
		args = append(append(args, widths...), sargs...)
		args = append(append(args, sr.ID, minIter), cargs...)
		rows, err = q.QueryContext(ctx, "SELECT "+b+" AS x, AVG(p.value), MIN(p.value), MAX(p.value), COUNT(*) FROM "+src+" p WHERE p.series = ? AND p.iter > ? AND "+cond+" GROUP BY x ORDER BY x",
			args...)
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ExtremeBucket
	for rows.Next() {
		var b ExtremeBucket
		if err := rows.Scan(&b.X, &b.Mean, &b.Lo, &b.Hi, &b.Cnt); err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// maxIterBuckets bounds the buckets extremesByIter keeps in a slice.
const maxIterBuckets = 1 << 20

// extremesByIter groups by iteration in Go: the points of the range come
// in whatever order the database finds them (no sort, no grouping there)
// and go to their bucket's slot; ok is false for a range of more than
// maxIterBuckets buckets, which the database groups instead.
func (s *Store) extremesByIter(ctx context.Context, q store.Querier, sr *Series, minIter int64, r KeyRange, interval int64, src string, sargs []any, cond string, cargs []any) ([]ExtremeBucket, bool, error) {
	lo, hi := max(r.Lo, minIter+1), r.Hi
	base := floorTo(lo, interval, false)
	span := floorTo(hi, interval, false) - base
	if span < 0 || span/interval >= maxIterBuckets {
		return nil, false, nil
	}
	slots := make([]ExtremeBucket, span/interval+1)
	rows, err := q.QueryContext(ctx, "SELECT p.iter, p.value FROM "+src+" p WHERE p.series = ? AND p.iter > ? AND "+cond,
		append(append(sargs, sr.ID, minIter), cargs...)...)
	if err != nil {
		return nil, true, err
	}
	defer rows.Close()
	// scanned into any, as the rollups are (no reflection per value)
	var vs [2]any
	dest := []any{&vs[0], &vs[1]}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, true, err
		}
		it, e1 := anyInt64(vs[0])
		v, e2 := anyFloat64(vs[1])
		if err := errors.Join(e1, e2); err != nil {
			return nil, true, err
		}
		if it < lo || it > hi {
			continue
		}
		b := &slots[(floorTo(it, interval, false)-base)/interval]
		if b.Cnt == 0 {
			b.Lo, b.Hi = v, v
		} else {
			b.Lo, b.Hi = min(b.Lo, v), max(b.Hi, v)
		}
		b.Mean += v // the sum, until the end
		b.Cnt++
	}
	if err := rows.Err(); err != nil {
		return nil, true, err
	}
	out := make([]ExtremeBucket, 0, len(slots))
	for i, b := range slots {
		if b.Cnt == 0 {
			continue
		}
		b.X = base + int64(i)*interval
		b.Mean /= float64(b.Cnt)
		out = append(out, b)
	}
	return out, true, nil
}
