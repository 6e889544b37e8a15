package mlflow

import (
	"cmp"
	"context"
	"slices"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/store"
)

// A run that keeps its history once (store.MLflowRun.ScalarHistory, see
// logbatch.go) has a key's points in two places: its scalar series (one
// point a step) and its own rows (the rest). keptHistory merges them in
// (step, timestamp) order; at the same step and time the own rows come
// first, in the order written, and the series' point (the step's last
// written finite point) after them. A row marked InScalars stands for
// the series' point at its step, with the links the series cannot hold.

// keptHistory reads up to limit points of key from offset on.
func keptHistory(ctx context.Context, env *domain.Env, task, key string, offset, limit int) ([]Metric, error) {
	want := offset + limit
	own, err := env.DB.MetricHistory(ctx, task, key, 0, want)
	if err != nil {
		return nil, err
	}
	r := &events.Reader{DB: env.DB}
	if len(own) == 0 {
		// the common case: every point is in the series
		return seriesMetrics(ctx, r, task, key, key, key, offset, limit)
	}
	// at most len(own) series points give way to InScalars rows
	series, err := r.SeriesPage(ctx, task, key, key, 0, want+len(own))
	if err != nil {
		return nil, err
	}
	merged := mergeHistory(key, own, series, want)
	if offset >= len(merged) {
		return []Metric{}, nil
	}
	return merged[offset:], nil
}

// seriesMetrics reads a page of a series (metric, variant) of task as
// the history points of key.
func seriesMetrics(ctx context.Context, r *events.Reader, task, metric, variant, key string, offset, limit int) ([]Metric, error) {
	pts, err := r.SeriesPage(ctx, task, metric, variant, offset, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Metric, len(pts))
	for i, p := range pts {
		out[i] = seriesMetric(key, p)
	}
	return out, nil
}

func seriesMetric(key string, p events.SeriesPoint) Metric {
	return Metric{Key: key, Value: FormatValue(p.Value), Timestamp: p.TS, Step: p.Iter}
}

// mergeHistory merges a key's own rows and series points (both in
// order) into the first n points of its history.
func mergeHistory(key string, own []store.MetricPoint, series []events.SeriesPoint, n int) []Metric {
	// a row the series holds too takes the series point's place
	held := map[int64]bool{}
	for _, p := range own {
		if p.InScalars {
			held[p.Step] = true
		}
	}
	slices.SortStableFunc(own, func(a, b store.MetricPoint) int {
		return cmp.Or(cmp.Compare(a.Step, b.Step), cmp.Compare(a.Timestamp, b.Timestamp), cmp.Compare(boolRank(a.InScalars), boolRank(b.InScalars)))
	})
	out := make([]Metric, 0, min(n, len(own)+len(series)))
	i, j := 0, 0
	for len(out) < n {
		for j < len(series) && held[series[j].Iter] {
			j++
		}
		switch {
		case i < len(own) && (j >= len(series) || ownFirst(&own[i], &series[j])):
			out = append(out, historyMetric(&own[i]))
			i++
		case j < len(series):
			out = append(out, seriesMetric(key, series[j]))
			j++
		default:
			return out
		}
	}
	return out
}

// ownFirst reports whether row a comes before series point p.
func ownFirst(a *store.MetricPoint, p *events.SeriesPoint) bool {
	if a.Step != p.Iter {
		return a.Step < p.Iter
	}
	if a.Timestamp != p.TS {
		return a.Timestamp < p.TS
	}
	return !a.InScalars
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// historyMetrics are history rows as points.
func historyMetrics(pts []store.MetricPoint) []Metric {
	out := make([]Metric, len(pts))
	for i := range pts {
		out[i] = historyMetric(&pts[i])
	}
	return out
}

func historyMetric(p *store.MetricPoint) Metric {
	return Metric{Key: p.Key, Value: p.Value, Timestamp: p.Timestamp, Step: p.Step, MetricLinks: p.MetricLinks}
}
