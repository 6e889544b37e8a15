package mlflow

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// Grouping and aggregating the rows of trace metrics: groups by time
// bucket (floor(time / interval) * interval) and the dimensions, in that
// order; without either, one group that answers even when empty (a
// COUNT of 0), as SQL's ungrouped aggregate does.

type metricGroup struct {
	bucket int64
	dims   []string
	values []float64
	keys   map[string]bool
}

func aggregate(q *TraceMetricsQuery, rows []metricRow) []MetricDataPoint {
	interval := q.IntervalSeconds * 1000
	groups := map[string]*metricGroup{}
	var order []*metricGroup
	if interval == 0 && len(q.Dimensions) == 0 {
		g := &metricGroup{keys: map[string]bool{}}
		groups[groupKey(0, nil)], order = g, append(order, g)
	}
	for _, r := range rows {
		var bucket int64
		if interval > 0 {
			bucket = floorDiv(r.time, interval) * interval
		}
		k := groupKey(bucket, r.dims)
		g, ok := groups[k]
		if !ok {
			g = &metricGroup{bucket: bucket, dims: r.dims, keys: map[string]bool{}}
			groups[k] = g
			order = append(order, g)
		}
		if r.key != "" {
			g.keys[r.key] = true
		}
		g.values = append(g.values, r.value)
	}
	slices.SortFunc(order, func(a, b *metricGroup) int {
		if c := cmp.Compare(a.bucket, b.bucket); c != 0 {
			return c
		}
		return slices.Compare(a.dims, b.dims)
	})
	out := make([]MetricDataPoint, 0, len(order))
	for _, g := range order {
		p := MetricDataPoint{MetricName: q.Metric, Dimensions: map[string]string{}, Values: map[string]float64{}}
		if interval > 0 {
			p.Dimensions[TimeBucketDimension] = time.UnixMilli(g.bucket).UTC().Format("2006-01-02T15:04:05+00:00")
		}
		for i, d := range q.Dimensions {
			p.Dimensions[d] = g.dims[i]
		}
		for _, a := range q.Aggregations {
			if v, ok := aggregateValues(q.Metric, a, g); ok {
				p.Values[aggregationKey(a)] = v
			}
		}
		if len(p.Values) > 0 {
			out = append(out, p)
		}
	}
	return out
}

func groupKey(bucket int64, dims []string) string {
	b := make([]byte, 0, 64)
	b = append(b, byte(bucket>>56), byte(bucket>>48), byte(bucket>>40), byte(bucket>>32),
		byte(bucket>>24), byte(bucket>>16), byte(bucket>>8), byte(bucket))
	for _, d := range dims {
		b = append(b, 0)
		b = append(b, d...)
	}
	return string(b)
}

func aggregationKey(a MetricAggregation) string {
	if a.Type == AggPercentile && a.Percentile != nil {
		return percentileKey(*a.Percentile)
	}
	return a.Type
}

// aggregateValues computes one aggregate of a group; false when it has no
// value (an empty group's SUM, AVG, MIN, MAX or percentile).
func aggregateValues(metric string, a MetricAggregation, g *metricGroup) (float64, bool) {
	vs := g.values
	if a.Type == AggCount {
		if metric == "session_count" {
			return float64(len(g.keys)), true
		}
		return float64(len(vs)), true
	}
	if len(vs) == 0 {
		return 0, false
	}
	switch a.Type {
	case AggSum, AggAvg:
		sum := 0.0
		for _, v := range vs {
			sum += v
		}
		if a.Type == AggAvg {
			return sum / float64(len(vs)), true
		}
		return sum, true
	case AggMin:
		return slices.Min(vs), true
	case AggMax:
		return slices.Max(vs), true
	}
	return percentile(vs, *a.Percentile), true
}

// percentile is the p-th percentile (0-100) of vs with linear
// interpolation between the closest ranks (PostgreSQL's percentile_cont,
// numpy's default).
func percentile(vs []float64, p float64) float64 {
	s := slices.Clone(vs)
	slices.Sort(s)
	pos := p / 100 * float64(len(s)-1)
	lo := int(math.Floor(pos))
	if lo >= len(s)-1 {
		return s[len(s)-1]
	}
	frac := pos - float64(lo)
	return s[lo] + frac*(s[lo+1]-s[lo])
}
