package mlflow

import (
	"context"
	"maps"
	"math"
	"slices"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

// The write path of log-batch (and of log-metric, log-parameter and
// set-tag, which are batches of one): the run's history rows, its
// document (latest values, params, tags) and the scalar copy of its finite
// points are written in one transaction, the events ingester's group
// commit, shared with concurrent batches (events.TaskEdit). Each part is a
// function of the run and the batch: historyRows, scalarCopy, applyBatch.

// LogBatch writes metrics, params and tags to an active run: params are
// immutable once logged, metric history keeps every point (NaN and ±inf
// included), and each key's latest value follows MLflow's rule (newer). It
// returns how many points of the scalar copy the events writer refused
// (a published task takes no events; its MLflow history is still written).
func LogBatch(ctx context.Context, env *domain.Env, ing *events.Ingester, b Batch) (int, error) {
	if err := CheckBatch(&b); err != nil {
		return 0, err
	}
	if b.RunID == "" {
		return 0, apierr.MLflowInvalidParameter("Missing value for required parameter 'run_id'.")
	}
	rows := historyRows(b.Metrics)
	now := env.Time()
	var latest []store.LatestNum // the keys' latest values after the edit
	edit := &events.TaskEdit{Task: b.RunID, Edit: func(t *store.Task) error {
		if err := applyBatch(t, &b, rows, now); err != nil {
			return err
		}
		latest = latestNums(t.MLflow.Metrics, rows)
		return nil
	}}
	if len(rows) > 0 {
		edit.Write = func(ctx context.Context, q store.Querier) error {
			if err := env.DB.AddMetricPoints(ctx, q, b.RunID, rows); err != nil {
				return err
			}
			return env.DB.SetLatestMetrics(ctx, q, b.RunID, latest)
		}
	}
	res, err := ing.IngestEvents(ctx, b.Company, b.User, scalarCopy(b.RunID, rows), edit, len(rows))
	if err != nil {
		return 0, err
	}
	return res.ErrorCount(), nil
}

// historyRows are the rows of a batch's metrics in the run's history, each
// value in its stored text (ParseValue accepted them all: CheckBatch).
func historyRows(ms []Metric) []store.MetricPoint {
	rows := make([]store.MetricPoint, len(ms))
	for i, m := range ms {
		v, _ := ParseValue(m.Value)
		rows[i] = store.MetricPoint{Key: m.Key, Step: m.Step, Timestamp: m.Timestamp, Value: FormatValue(v), MetricLinks: m.MetricLinks}
	}
	return rows
}

// scalarCopy is the run's scalar series' share of its history rows: the
// finite points, each key a series (metric and variant both the key), for
// Trove's UI and the ClearML API.
func scalarCopy(run string, rows []store.MetricPoint) []*events.Event {
	evs := make([]events.Event, 0, len(rows))
	for _, r := range rows {
		v, _ := ParseValue(r.Value)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		evs = append(evs, events.Event{Type: events.Scalar, Task: run, Iter: r.Step, Metric: r.Key, Variant: r.Key,
			Timestamp: r.Timestamp, HasTimestamp: true, Value: v})
	}
	out := make([]*events.Event, len(evs))
	for i := range evs {
		out[i] = &evs[i]
	}
	return out
}

// applyBatch changes the run's document as the batch logs: params (never
// changed once logged), tags (mlflow.runName renames the run) and each
// metric key's latest value. t is the task as the write transaction holds
// it (nil when there is no such run); the maps it holds may be shared, so
// those changed are copied first.
func applyBatch(t *store.Task, b *Batch, rows []store.MetricPoint, now jsonx.Time) error {
	if t == nil {
		return apierr.MLflowNotFound("Run '%s' not found", b.RunID)
	}
	if domain.HasTag(t.SystemTags, tagArchived) {
		return apierr.MLflowInvalidParameter("The run %s must be in the 'active' state. Current state is deleted.", b.RunID)
	}
	for _, p := range b.Params {
		if old, ok := t.Hyperparams[ParamSection][p.Key]; ok && old != nil && old.Value != p.Value {
			return apierr.MLflowInvalidParameter("Changing param values is not allowed. Param with key='%s' was already logged with value='%s' for run ID='%s'. Attempted logging new value '%s'.", p.Key, old.Value, t.ID, p.Value)
		}
	}
	run := &store.MLflowRun{}
	if t.MLflow != nil {
		*run = *t.MLflow
	}
	if len(b.Params) > 0 {
		hp := make(map[string]map[string]*store.ParamItem, len(t.Hyperparams)+1)
		maps.Copy(hp, t.Hyperparams)
		section := make(map[string]*store.ParamItem, len(hp[ParamSection])+len(b.Params))
		maps.Copy(section, hp[ParamSection])
		for _, p := range b.Params {
			section[p.Key] = &store.ParamItem{Section: ParamSection, Name: p.Key, Value: p.Value}
		}
		hp[ParamSection] = section
		t.Hyperparams = hp
	}
	if len(b.Tags) > 0 {
		tags := make(map[string]string, len(run.Tags)+len(b.Tags))
		maps.Copy(tags, run.Tags)
		for _, tg := range b.Tags {
			tags[tg.Key] = tg.Value
			if tg.Key == TagRunName && tg.Value != "" {
				t.Name = tg.Value
			}
		}
		run.Tags = tags
	}
	if len(rows) > 0 {
		run.Metrics = latestOf(run.Metrics, rows)
	}
	t.MLflow = run
	t.LastUpdate, t.LastChange, t.LastChangedBy = now, now, b.User
	return nil
}

// latestOf is the latest value of each key after rows, in a new map (cur
// is not changed).
func latestOf(cur map[string]*store.LatestMetric, rows []store.MetricPoint) map[string]*store.LatestMetric {
	out := make(map[string]*store.LatestMetric, len(cur)+4)
	maps.Copy(out, cur)
	for _, r := range rows {
		if old := out[r.Key]; old == nil || newer(r, old) {
			lm := &store.LatestMetric{Value: r.Value, Step: r.Step, Timestamp: r.Timestamp}
			if v, _ := ParseValue(r.Value); !math.IsNaN(v) && !math.IsInf(v, 0) {
				lm.Num = &v
			}
			out[r.Key] = lm
		}
	}
	return out
}

// newer reports whether point a replaces b as a key's latest value:
// higher step, then newer timestamp, then larger value (NaN last).
func newer(a store.MetricPoint, b *store.LatestMetric) bool {
	if a.Step != b.Step {
		return a.Step > b.Step
	}
	if a.Timestamp != b.Timestamp {
		return a.Timestamp > b.Timestamp
	}
	av, _ := ParseValue(a.Value)
	bv, _ := ParseValue(b.Value)
	if math.IsNaN(bv) {
		return !math.IsNaN(av)
	}
	return av > bv
}

// latestNums are the latest values of the keys rows log, for the table
// runs/search reads (store.SetLatestMetrics), in key order.
func latestNums(latest map[string]*store.LatestMetric, rows []store.MetricPoint) []store.LatestNum {
	keys := make([]string, 0, 4)
	seen := make(map[string]bool, 4)
	for _, r := range rows {
		if !seen[r.Key] {
			seen[r.Key] = true
			keys = append(keys, r.Key)
		}
	}
	slices.Sort(keys)
	out := make([]store.LatestNum, len(keys))
	for i, k := range keys {
		out[i] = store.LatestNum{Key: k, Num: latest[k].Num}
	}
	return out
}
