package events

import (
	"context"
	"sort"
	"sync"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// Scalar histograms (scalar_metrics_iter_histogram and its multi-task
// form) downsample each series to at most `samples` buckets, each the
// mean of its points, computed by the database:
//
//   - a series with fewer points than samples (or samples 0) returns its
//     points;
//   - otherwise the bucket width is ceil(range/samples), widened to the
//     largest group width as the reference groups series of similar
//     widths; by iteration the width is then rounded up to a power of two
//     and the database groups the stored rollup rows of the widest level
//     not wider (32, 128, 512, 2048 or 8192 iterations: one or two rows
//     per bucket), so a histogram reads at most 2*samples rows per series
//     however long the series is (at least half of the requested points
//     come back, as the reference's own rounding can give); series of up
//     to 20,000 points, widths up to 16, and widths in time group the
//     points themselves, with the exact width.
//
// Single values (iteration -2^31) and points without iteration are left
// out.

// RollupLevels are the bucket widths (powers of two) of the stored scalar
// rollups: 32, 128, 512, 2048 and 8192 iterations. Each batch adds about
// 1.4 rollup rows per 100 points; a power-of-two histogram width between
// two levels reads two rows of the finer one per bucket.
var RollupLevels = []int{5, 7, 9, 11, 13}

// DefaultSamples is the default number of histogram buckets.
const DefaultSamples = 6000

// exactHistogramPoints is the series size up to which buckets are
// grouped from the points themselves, with the reference's exact widths.
const exactHistogramPoints = 20000

const (
	maxGroupSeries = 50
	maxGroupPoints = 6000
)

// HistKey is the x axis of a histogram.
type HistKey string

// The histogram keys.
const (
	KeyIter      HistKey = "iter"
	KeyTimestamp HistKey = "timestamp"
	KeyISOTime   HistKey = "iso_time"
)

// Curve is one series' histogram: bucket keys and mean values, and with
// HistOptions.Extremes each bucket's smallest and largest value.
type Curve struct {
	Metric, Variant string
	X               []int64
	Y               []float64
	Min, Max        []float64
}

type seriesPlan struct {
	series   eventstore.Series
	count    int64
	min, max int64
	interval int64
	points   int64
}

// Histogram computes the histograms of a task's scalar series passing
// the filters, ordered by metric and variant.
func (r *Reader) Histogram(ctx context.Context, task string, fs []eventstore.MetricFilter, samples int, key HistKey) ([]Curve, error) {
	return r.HistogramOf(ctx, task, fs, HistOptions{Samples: samples, Key: key})
}

// HistogramOf is Histogram with the options of a zoomable chart: a key
// range, each bucket's extremes (histogram_range.go).
func (r *Reader) HistogramOf(ctx context.Context, task string, fs []eventstore.MetricFilter, o HistOptions) ([]Curve, error) {
	if o.exact() {
		return r.histogramRange(ctx, task, fs, o)
	}
	samples, key := o.Samples, o.Key
	series, err := r.series(ctx, task, fs)
	if err != nil {
		return nil, err
	}
	plans, err := r.plan(ctx, series, samples, key)
	if err != nil {
		return nil, err
	}
	rolled, err := r.readRollups(ctx, plans, key)
	if err != nil {
		return nil, err
	}
	curves := make([]Curve, len(plans))
	errs := make([]error, len(plans))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i := range plans {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer wg.Done()
			defer func() { <-sem }()
			curves[i], errs[i] = r.curve(ctx, &plans[i], key, rolled[i])
		}(i)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return curves, nil
}

// plan reads each series' size and range and sets its bucket width.
func (r *Reader) plan(ctx context.Context, series []eventstore.Series, samples int, key HistKey) ([]seriesPlan, error) {
	es, q := eventstore.Of(r.DB), r.DB.Read()
	coarsest := RollupLevels[len(RollupLevels)-1]
	var plans []seriesPlan
	for _, s := range series {
		if s.MaxIter <= SingleValueIter {
			continue
		}
		var rg eventstore.SeriesRange
		var err error
		if key == KeyIter {
			rg, err = es.IterRange(ctx, q, s.ID, coarsest, SingleValueIter, rolledThrough(&s))
		} else {
			rg, err = es.TimeRange(ctx, q, s.ID, SingleValueIter)
		}
		if err != nil {
			return nil, err
		}
		if rg.Count == 0 {
			continue
		}
		p := seriesPlan{series: s, count: rg.Count, min: rg.Min, max: rg.Max, interval: 1, points: rg.Count}
		if samples > 0 && rg.Count >= int64(samples) {
			span := rg.Max - rg.Min + 1
			p.interval = max(1, ceilDiv(span, int64(samples)))
			p.points = ceilDiv(span, p.interval)
		}
		plans = append(plans, p)
	}
	groupIntervals(plans)
	return plans, nil
}

// groupIntervals gives series of similar widths (within 10% of a group's
// first width, at most 50 series and 6000 points a group) the group's
// largest width, as the reference does.
func groupIntervals(plans []seriesPlan) {
	idx := make([]int, len(plans))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return plans[idx[a]].interval < plans[idx[b]].interval })
	var group []int
	var upper, largest, points int64
	flush := func() {
		for _, i := range group {
			plans[i].interval = largest
		}
		group = group[:0]
	}
	for _, i := range idx {
		p := &plans[i]
		if len(group) == 0 || p.interval > upper || points+p.points > maxGroupPoints || len(group) >= maxGroupSeries {
			flush()
			upper = p.interval + p.interval/10
			largest, points = p.interval, 0
		}
		group = append(group, i)
		points += p.points
		largest = max(largest, p.interval)
	}
	flush()
}

// rollupRead is what a plan reads of the rollups, if it reads them: by
// iteration, a series of more than exactHistogramPoints points and a
// width beyond 16.
func (p *seriesPlan) rollupRead(key HistKey) (eventstore.RollupRead, bool) {
	level := rollupLevelFor(p.interval)
	if key != KeyIter || level < 0 || p.count <= exactHistogramPoints {
		return eventstore.RollupRead{}, false
	}
	return eventstore.RollupRead{Series: p.series.ID, Level: level, Interval: rollupWidth(p.interval, level), NonNegative: p.min >= 0}, true
}

// readRollups reads the rollup buckets of every plan that reads rollups
// (nil for the others) at once: one statement per level, not one per
// series.
func (r *Reader) readRollups(ctx context.Context, plans []seriesPlan, key HistKey) ([][]eventstore.HistBucket, error) {
	out := make([][]eventstore.HistBucket, len(plans))
	var reads []eventstore.RollupRead
	var at []int
	for i := range plans {
		if rd, ok := plans[i].rollupRead(key); ok {
			reads = append(reads, rd)
			at = append(at, i)
		}
	}
	if len(reads) == 0 {
		return out, nil
	}
	got, err := eventstore.Of(r.DB).RollupHistograms(ctx, r.DB.Read(), reads)
	if err != nil {
		return nil, err
	}
	for j, i := range at {
		out[i] = got[j]
	}
	return out, nil
}

// curve reads one series' buckets; rolled are its rollup buckets when it
// reads rollups (readRollups), to which the points not yet rolled up are
// added.
func (r *Reader) curve(ctx context.Context, p *seriesPlan, key HistKey, rolled []eventstore.HistBucket) (Curve, error) {
	es, q := eventstore.Of(r.DB), r.DB.Read()
	c := Curve{Metric: p.series.Metric, Variant: p.series.Variant}
	var pts []eventstore.HistPoint
	var err error
	rd, fromRollups := p.rollupRead(key)
	switch {
	case key != KeyIter:
		pts, err = es.HistogramFromPoints(ctx, q, p.series.ID, p.interval, true, SingleValueIter)
	case !fromRollups:
		pts, err = es.HistogramFromPoints(ctx, q, p.series.ID, p.interval, false, SingleValueIter)
	default:
		var tail []eventstore.HistBucket
		if after := rolledThrough(&p.series); after < p.max {
			if tail, err = es.HistogramTail(ctx, q, p.series.ID, after, rd.Interval); err != nil {
				return c, err
			}
		}
		pts = mergeBuckets(rolled, tail)
	}
	if err != nil {
		return c, err
	}
	c.X, c.Y = make([]int64, len(pts)), make([]float64, len(pts))
	for i, pt := range pts {
		c.X[i], c.Y[i] = pt.X, pt.Y
	}
	return c, nil
}

// rolledThrough is the last iteration of a series in its rollups (the
// single-value iteration when none is).
func rolledThrough(s *eventstore.Series) int64 { return max(s.RolledThrough, SingleValueIter) }

// mergeBuckets joins the buckets of the rollups and of the points not yet
// rolled up (both ordered; they share at most the bucket where the tail
// starts) into means.
func mergeBuckets(a, b []eventstore.HistBucket) []eventstore.HistPoint {
	out := make([]eventstore.HistPoint, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var x eventstore.HistBucket
		switch {
		case j >= len(b) || (i < len(a) && a[i].X < b[j].X):
			x, i = a[i], i+1
		case i >= len(a) || b[j].X < a[i].X:
			x, j = b[j], j+1
		default:
			x = eventstore.HistBucket{X: a[i].X, Sum: a[i].Sum + b[j].Sum, Cnt: a[i].Cnt + b[j].Cnt}
			i, j = i+1, j+1
		}
		if x.Cnt > 0 {
			out = append(out, eventstore.HistPoint{X: x.X, Y: x.Sum / float64(x.Cnt)})
		}
	}
	return out
}

// rollupLevelFor picks the rollup level for a bucket width. The width is
// rounded up to a power of two (at least half of the requested points
// come back, as the reference's own rounding can give), read from the
// widest stored level not wider: one or two rollup rows per bucket (the
// widest level's multiples for very wide buckets). Widths up to 16 group
// the points themselves (-1).
func rollupLevelFor(interval int64) int {
	if interval <= 16 {
		return -1
	}
	p := int64(1)
	for p < interval && p < 1<<62 {
		p <<= 1
	}
	best := RollupLevels[0]
	for _, l := range RollupLevels {
		if int64(1)<<l <= p {
			best = l
		}
	}
	return best
}

// rollupWidth is the bucket width read from a level: interval rounded up
// to a power of two, or to a multiple of the widest level beyond it.
func rollupWidth(interval int64, level int) int64 {
	w := int64(1) << level
	if interval <= w {
		return w
	}
	if level == RollupLevels[len(RollupLevels)-1] {
		return ceilDiv(interval, w) * w
	}
	p := w
	for p < interval {
		p <<= 1
	}
	return p
}

func ceilDiv(a, b int64) int64 {
	if a <= 0 {
		return 0
	}
	return (a + b - 1) / b
}

// TaskCurves are the sampled curves of one task.
type TaskCurves struct {
	Task   *Target
	Curves []Curve
}

// Histograms samples the scalar series of readable tasks (or models), each
// task on its own, in the order the ids were given.
func Histograms(ctx context.Context, d *domain.Env, company string, ids []string, model bool, fs []eventstore.MetricFilter, samples int, key HistKey) ([]TaskCurves, error) {
	return HistogramsOf(ctx, d, company, ids, model, fs, HistOptions{Samples: samples, Key: key})
}

// HistogramsOf is Histograms with the options of a zoomable chart.
func HistogramsOf(ctx context.Context, d *domain.Env, company string, ids []string, model bool, fs []eventstore.MetricFilter, o HistOptions) ([]TaskCurves, error) {
	ts, err := ReadableMany(ctx, d, company, ids, model)
	if err != nil {
		return nil, err
	}
	r := &Reader{DB: d.DB}
	out := make([]TaskCurves, len(ts))
	for i, t := range ts {
		curves, err := r.HistogramOf(ctx, t.ID, fs, o)
		if err != nil {
			return nil, err
		}
		out[i] = TaskCurves{Task: t, Curves: curves}
	}
	return out, nil
}
