package events

import (
	"context"
	"sort"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// LatestVariant is the last value of a series and the mean of its last
// 100 values.
type LatestVariant struct {
	Name              string
	Last, MeanLast100 float64
}

// LatestMetric is a metric's latest variants, in series order.
type LatestMetric struct {
	Name     string
	Variants []LatestVariant
}

// Latest is what get_task_latest_scalar_values reports of a task.
type Latest struct {
	Task    *Target
	Metrics []LatestMetric
	// LastIter is the task's highest iteration; LastTimestamp the latest
	// write time of its series (epoch ms).
	LastIter, LastTimestamp int64
}

// LatestScalarValues reports each series' last value of a readable task,
// and the mean of its last 100 values, every value counted.
func LatestScalarValues(ctx context.Context, d *domain.Env, company, taskID string) (*Latest, error) {
	t, err := Readable(ctx, d, company, taskID, false)
	if err != nil {
		return nil, err
	}
	es, q := eventstore.Of(d.DB), d.DB.Read()
	series, err := es.TaskSeries(ctx, q, t.ID)
	if err != nil {
		return nil, err
	}
	out := &Latest{Task: t, Metrics: []LatestMetric{}}
	for _, sr := range series {
		vals, err := es.LastValues(ctx, q, sr.ID, false, 100) // every value counts (seeds)
		if err != nil {
			return nil, err
		}
		if len(vals) == 0 {
			continue
		}
		sum := 0.0
		for _, v := range vals {
			sum += v
		}
		if n := len(out.Metrics); n == 0 || out.Metrics[n-1].Name != sr.Metric {
			out.Metrics = append(out.Metrics, LatestMetric{Name: sr.Metric, Variants: []LatestVariant{}})
		}
		m := &out.Metrics[len(out.Metrics)-1]
		m.Variants = append(m.Variants, LatestVariant{Name: sr.Variant, Last: vals[0], MeanLast100: sum / float64(len(vals))})
		out.LastTimestamp = max(out.LastTimestamp, sr.LastWTS)
	}
	iters, err := es.MaxIters(ctx, q, []string{t.ID})
	if err != nil {
		return nil, err
	}
	out.LastIter = iters[t.ID]
	return out, nil
}

// SingleValue is one single value (report_single_value) of a task.
type SingleValue struct {
	Metric, Variant string
	Value           float64
	Timestamp       int64
}

// TaskSingleValues are a task's single values, by metric and variant.
type TaskSingleValues struct {
	Task   *Target
	Values []SingleValue
}

// SingleValues returns the single values of readable tasks (or models)
// that pass the filters; tasks without any are left out.
func SingleValues(ctx context.Context, d *domain.Env, company string, ids []string, model bool, fs []eventstore.MetricFilter) ([]TaskSingleValues, error) {
	ts, err := ReadableMany(ctx, d, company, ids, model)
	if err != nil {
		return nil, err
	}
	es, q := eventstore.Of(d.DB), d.DB.Read()
	out := []TaskSingleValues{}
	for _, t := range ts {
		series, err := es.TaskSeries(ctx, q, t.ID)
		if err != nil {
			return nil, err
		}
		byID := map[int64]*eventstore.Series{}
		var idList []int64
		for i := range series {
			if Matches(fs, series[i].Metric, series[i].Variant) {
				byID[series[i].ID] = &series[i]
				idList = append(idList, series[i].ID)
			}
		}
		pts, err := es.PointsAt(ctx, q, idList, SingleValueIter)
		if err != nil {
			return nil, err
		}
		if len(pts) == 0 {
			continue
		}
		tv := TaskSingleValues{Task: t, Values: make([]SingleValue, len(pts))}
		for i, p := range pts {
			sr := byID[p.Series]
			tv.Values[i] = SingleValue{Metric: sr.Metric, Variant: sr.Variant, Value: p.Value, Timestamp: p.TS}
		}
		sort.Slice(tv.Values, func(i, j int) bool {
			a, b := tv.Values[i], tv.Values[j]
			return a.Metric < b.Metric || (a.Metric == b.Metric && a.Variant < b.Variant)
		})
		out = append(out, tv)
	}
	return out, nil
}
