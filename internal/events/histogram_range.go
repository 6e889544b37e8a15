package events

import (
	"context"
	"sync"

	"github.com/trove-ml/trove/internal/store/eventstore"
)

// Zoomable charts: a histogram of a key range, each bucket with its
// smallest and largest value (Trove's own additions to the scalar
// histograms; the reference has neither, and a request without them is
// answered as before).
//
//   - A range (HistOptions.Range) samples only the points with
//     Lo <= key <= Hi, in at most Samples buckets of their own: a chart
//     zoomed in reads its range again at full resolution, down to the
//     points themselves once the range holds fewer than Samples points.
//   - Extremes adds each bucket's smallest and largest value, so a single
//     outlying point shows at every zoom level, however many points share
//     its bucket.
//
// Either groups the points themselves over the range (the rollups keep
// sums only), with the reference's bucket widths (ceil(span/samples),
// widened by its grouping of similar series) and bucket starts.

// HistOptions are the options of a scalar histogram.
type HistOptions struct {
	// Samples is the most buckets a series gets (0: every point).
	Samples int
	Key     HistKey
	// Range, when set, bounds the keys read (iterations; event times in
	// epoch ms by time).
	Range *KeyRange
	// Extremes asks for each bucket's smallest and largest value.
	Extremes bool
}

// KeyRange is an inclusive range of histogram keys.
type KeyRange struct{ Lo, Hi int64 }

// exact tells whether the options read the points themselves.
func (o HistOptions) exact() bool { return o.Range != nil || o.Extremes }

// storeRange is the store's range of the options (the whole key space
// without one).
func (o HistOptions) storeRange() eventstore.KeyRange {
	r := eventstore.KeyRange{Lo: SingleValueIter + 1, Hi: 1<<63 - 1, ByTime: o.Key != KeyIter}
	if r.ByTime {
		r.Lo = -1 << 63
	}
	if o.Range != nil {
		r.Lo, r.Hi = o.Range.Lo, o.Range.Hi
	}
	return r
}

// histogramRange is HistogramOf for options that read the points.
func (r *Reader) histogramRange(ctx context.Context, task string, fs []eventstore.MetricFilter, o HistOptions) ([]Curve, error) {
	series, err := r.series(ctx, task, fs)
	if err != nil {
		return nil, err
	}
	es, q := eventstore.Of(r.DB), r.DB.Read()
	rg := o.storeRange()
	var plans []seriesPlan
	if o.Range == nil {
		// the whole series: sized as the other histograms size it (from
		// the rollups by iteration), then grouped from the points
		if plans, err = r.plan(ctx, series, o.Samples, o.Key); err != nil {
			return nil, err
		}
	} else {
		for _, s := range series {
			if s.MaxIter <= SingleValueIter {
				continue
			}
			if !rg.ByTime && (rg.Lo > s.MaxIter || rg.Hi <= SingleValueIter) {
				continue
			}
			p, ok, err := r.planRange(ctx, &s, rg, o.Samples)
			if err != nil {
				return nil, err
			}
			if ok {
				plans = append(plans, p)
			}
		}
		groupIntervals(plans)
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
			p := &plans[i]
			// the planned range: the series' own keys within the request's
			sub := rg
			sub.Lo, sub.Hi = p.min, p.max
			bs, err := es.HistogramExtremes(ctx, q, &p.series, SingleValueIter, sub, p.interval)
			if err == nil && p.interval > 1 && !sub.ByTime && o.Samples > 0 && bucketPoints(bs) < int64(o.Samples) {
				// fewer points than samples after all (a sparse series,
				// sized by its span): its points, as the reference gives them
				bs, err = es.HistogramExtremes(ctx, q, &p.series, SingleValueIter, sub, 1)
			}
			if err != nil {
				errs[i] = err
				return
			}
			c := Curve{Metric: p.series.Metric, Variant: p.series.Variant, X: make([]int64, len(bs)), Y: make([]float64, len(bs))}
			if o.Extremes {
				c.Min, c.Max = make([]float64, len(bs)), make([]float64, len(bs))
			}
			for j, b := range bs {
				c.X[j], c.Y[j] = b.X, b.Mean
				if o.Extremes {
					c.Min[j], c.Max[j] = b.Lo, b.Hi
				}
			}
			curves[i] = c
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

// planRange sizes a series' read of a range. By iteration the range's
// first and last point (two index seeks) give its span, and the span
// stands for the count: a span of at most samples iterations holds at
// most samples points (read as they are), a wider one is grouped, and
// read again as points should its buckets hold fewer than samples points
// (histogramRange). By time there is no index: the points are counted.
func (r *Reader) planRange(ctx context.Context, s *eventstore.Series, rg eventstore.KeyRange, samples int) (seriesPlan, bool, error) {
	es, q := eventstore.Of(r.DB), r.DB.Read()
	var got eventstore.SeriesRange
	if rg.ByTime {
		var err error
		if got, err = es.RangeOf(ctx, q, s, SingleValueIter, rg); err != nil || got.Count == 0 {
			return seriesPlan{}, false, err
		}
	} else {
		lo := max(rg.Lo, SingleValueIter+1)
		first, err := es.PointsByIter(ctx, q, s.ID, lo, true, false, 1)
		if err != nil || len(first) == 0 || first[0].Iter > rg.Hi {
			return seriesPlan{}, false, err
		}
		last, err := es.PointsByIter(ctx, q, s.ID, rg.Hi, true, true, 1)
		if err != nil || len(last) == 0 {
			return seriesPlan{}, false, err
		}
		got = eventstore.SeriesRange{Min: first[0].Iter, Max: last[0].Iter}
		got.Count = got.Max - got.Min + 1 // at most
	}
	p := seriesPlan{series: *s, count: got.Count, min: got.Min, max: got.Max, interval: 1, points: got.Count}
	if samples > 0 && got.Count >= int64(samples) {
		span := got.Max - got.Min + 1
		p.interval = max(1, ceilDiv(span, int64(samples)))
		p.points = ceilDiv(span, p.interval)
	}
	return p, true, nil
}

// bucketPoints is the number of points in buckets.
func bucketPoints(bs []eventstore.ExtremeBucket) int64 {
	var n int64
	for _, b := range bs {
		n += b.Cnt
	}
	return n
}
