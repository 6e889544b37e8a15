package events

import (
	"context"

	"github.com/trove-ml/trove/internal/store/eventstore"
)

// SeriesPoint is one scalar point of a series read by SeriesPage.
type SeriesPoint struct {
	Iter, TS int64
	Value    float64
}

// SeriesPage reads up to n points of task's scalar series metric/variant
// that have an iteration, in iteration order from the offset-th on; nil
// when the task has no such series.
func (r *Reader) SeriesPage(ctx context.Context, task, metric, variant string, offset, n int) ([]SeriesPoint, error) {
	series, err := r.series(ctx, task, []eventstore.MetricFilter{{Metric: metric, Variants: []string{variant}}})
	if err != nil || len(series) == 0 {
		return nil, err
	}
	pts, err := eventstore.Of(r.DB).PointsPage(ctx, r.DB.Read(), series[0].ID, offset, n)
	if err != nil {
		return nil, err
	}
	out := make([]SeriesPoint, len(pts))
	for i, p := range pts {
		out[i] = SeriesPoint{Iter: p.Iter, TS: p.TS, Value: p.Value}
	}
	return out, nil
}

// SeriesNames lists the metric and variant of task's scalar series.
func (r *Reader) SeriesNames(ctx context.Context, task string) ([][2]string, error) {
	all, err := r.series(ctx, task, nil)
	if err != nil {
		return nil, err
	}
	out := make([][2]string, len(all))
	for i, s := range all {
		out[i] = [2]string{s.Metric, s.Variant}
	}
	return out, nil
}
