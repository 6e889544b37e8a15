package mlflow

import (
	"context"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/events"
)

// A task reported with the ClearML SDK has scalar series, not MLflow
// history: its metric keys are those runs/get answers (the metric when
// the variant is the metric, else metric/variant), and get-history reads
// a key's series point by point (step = iteration, timestamp = the
// event's time in ms).

// seriesOfKey finds the scalar series a metric key names: the series
// whose metric and variant are both key first, else the first metric/
// variant (in name order) that spells it.
func seriesOfKey(names [][2]string, key string) (metric, variant string, ok bool) {
	for _, n := range names {
		if n[0] == key && n[1] == key {
			return n[0], n[1], true
		}
	}
	for _, n := range names {
		if n[0] != n[1] && n[0]+"/"+n[1] == key {
			return n[0], n[1], true
		}
	}
	return "", "", false
}

// scalarHistory reads key's points from task's scalar series.
func scalarHistory(ctx context.Context, env *domain.Env, task, key string, offset, limit int) ([]Metric, error) {
	r := &events.Reader{DB: env.DB}
	names, err := r.SeriesNames(ctx, task)
	if err != nil {
		return nil, err
	}
	metric, variant, ok := seriesOfKey(names, key)
	if !ok {
		return []Metric{}, nil
	}
	return seriesMetrics(ctx, r, task, metric, variant, key, offset, limit)
}
