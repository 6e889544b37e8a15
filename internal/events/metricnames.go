package events

import (
	"context"
	"sort"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// AnyType asks metric listings for every event type, logs included
// (events.get_multi_task_metrics without event_type).
const AnyType Type = "*"

// metricNames lists, per task, the metric/variants with events of type
// ("" = scalars, vectors, images and plots; AnyType = those and logs)
// that have an iteration above minIter.
func metricNames(ctx context.Context, d *domain.Env, tasks []string, typ Type, minIter int64) ([]eventstore.TaskMetricVariant, error) {
	es, q := eventstore.Of(d.DB), d.DB.Read()
	var out []eventstore.TaskMetricVariant
	if typ == AnyType {
		logs, err := es.LogMetricVariants(ctx, q, tasks)
		if err != nil {
			return nil, err
		}
		out = append(out, logs...)
		typ = ""
	}
	if typ == "" || typ == Scalar {
		series, err := es.TaskSeries(ctx, q, tasks...)
		if err != nil {
			return nil, err
		}
		for _, sr := range series {
			if sr.MaxIter > minIter {
				out = append(out, eventstore.TaskMetricVariant{Task: sr.Task, Metric: sr.Metric, Variant: sr.Variant})
			}
		}
	}
	switch typ {
	case Log:
		logs, err := es.LogMetricVariants(ctx, q, tasks)
		if err != nil {
			return nil, err
		}
		out = append(out, logs...)
	case Scalar:
	default:
		docs, err := es.DocMetricVariants(ctx, q, tasks, string(typ), minIter, false)
		if err != nil {
			return nil, err
		}
		out = append(out, docs...)
	}
	return out, nil
}

// readableNames is metricNames of readable tasks (or models), grouped as
// member sets under a key (task -> metrics, metric -> variants).
func readableNames(ctx context.Context, d *domain.Env, company string, ids []string, model bool, typ Type, minIter int64,
	group func(eventstore.TaskMetricVariant) (key, member string)) ([]*Target, map[string]map[string]bool, error) {
	ts, err := ReadableMany(ctx, d, company, ids, model)
	if err != nil {
		return nil, nil, err
	}
	mvs, err := metricNames(ctx, d, IDs(ts), typ, minIter)
	if err != nil {
		return nil, nil, err
	}
	sets := map[string]map[string]bool{}
	for _, mv := range mvs {
		k, m := group(mv)
		if sets[k] == nil {
			sets[k] = map[string]bool{}
		}
		sets[k][m] = true
	}
	return ts, sets, nil
}

// TaskMetricNames are the metric names of one task, sorted.
type TaskMetricNames struct {
	Task    string
	Metrics []string
}

// MetricNamesOf lists each readable task's (or model's) metric names with
// events of type ("" = all but logs) that have an iteration above the
// single-value one, in the order the ids were given.
func MetricNamesOf(ctx context.Context, d *domain.Env, company string, ids []string, model bool, typ Type) ([]TaskMetricNames, error) {
	ts, names, err := readableNames(ctx, d, company, ids, model, typ, SingleValueIter,
		func(mv eventstore.TaskMetricVariant) (string, string) { return mv.Task, mv.Metric })
	if err != nil {
		return nil, err
	}
	out := make([]TaskMetricNames, len(ts))
	for i, t := range ts {
		out[i] = TaskMetricNames{Task: t.ID, Metrics: sortedSet(names[t.ID])}
	}
	return out, nil
}

// MetricVariants is a metric with its variants, sorted.
type MetricVariants struct {
	Metric   string
	Variants []string
}

// MetricsAndVariants lists the union of the metrics and variants of the
// readable tasks (or models) with events of type, sorted by metric.
func MetricsAndVariants(ctx context.Context, d *domain.Env, company string, ids []string, model bool, typ Type) ([]MetricVariants, error) {
	_, byMetric, err := readableNames(ctx, d, company, ids, model, typ, NoIter,
		func(mv eventstore.TaskMetricVariant) (string, string) { return mv.Metric, mv.Variant })
	if err != nil {
		return nil, err
	}
	metrics := make([]string, 0, len(byMetric))
	for m := range byMetric {
		metrics = append(metrics, m)
	}
	sort.Strings(metrics)
	out := make([]MetricVariants, len(metrics))
	for i, m := range metrics {
		out[i] = MetricVariants{Metric: m, Variants: sortedSet(byMetric[m])}
	}
	return out, nil
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
