package mlflow

import (
	"context"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

// The write path of log-batch (and of log-metric, log-parameter and
// set-tag, which are batches of one): the run's points, its document
// (latest values, params, tags) and the mark that its latest-value rows
// follow it (store.MarkLatestPending) are written in one transaction, the
// events ingester's group commit, shared with concurrent batches
// (events.TaskEdit).
//
// A run's finite points are kept once, as its scalar series' points (a
// series per key, metric and variant both the key), which Trove's UI and
// the ClearML API read too. A series holds one point a step, the last
// written, so the history's own rows (store.MetricPoint) hold the rest:
// NaN and ±inf, a step's earlier points (the batch's own, and a stored
// one the batch replaces), points with links (marked InScalars when the
// series holds them too), and every point of a run the ClearML API has
// published (it takes no events). Runs that logged metrics before this
// (no ScalarHistory) keep every point in their rows, and the series a
// copy.

// LogBatch writes metrics, params and tags to an active run: params are
// immutable once logged, metric history keeps every point (NaN and ±inf
// included), and each key's latest value follows MLflow's rule (newer).
// What can be worked out before the write transaction is: the writer is
// shared by every batch of the server.
func LogBatch(ctx context.Context, env *domain.Env, ing *events.Ingester, b Batch) error {
	if err := CheckBatch(&b); err != nil {
		return err
	}
	if b.RunID == "" {
		return apierr.MLflowInvalidParameter("Missing value for required parameter 'run_id'.")
	}
	pts := parsePoints(b.Metrics)
	best := batchLatest(pts)
	own := ownRows(pts)
	now := env.Time()
	var once bool // the run keeps its history in its series
	edit := &events.TaskEdit{Task: b.RunID, KeepReplaced: true, SummaryOnly: summaryOnly(&b), Edit: func(t *store.Task) error {
		if err := applyBatch(t, &b, best, now); err != nil {
			return err
		}
		once = t.MLflow.ScalarHistory
		return nil
	}}
	if len(pts) > 0 {
		edit.Write = func(ctx context.Context, q store.Querier, done *events.EditWrite) error {
			rows := own
			switch {
			case !once || !done.Accepted:
				// an earlier run, or a published one: every point
				rows = allRows(pts)
			case len(done.Replaced) > 0:
				if err := env.DB.KeepReplacedPoints(ctx, q, b.RunID, replacedRows(done.Replaced)); err != nil {
					return err
				}
			}
			if err := env.DB.AddMetricPoints(ctx, q, b.RunID, rows); err != nil {
				return err
			}
			// the latest-value rows follow the document (store.SyncLatestMetrics)
			return env.DB.MarkLatestPending(ctx, q, b.RunID)
		}
	}
	_, err := ing.IngestEvents(ctx, b.Company, b.User, scalarPoints(b.RunID, pts), edit, len(pts))
	return err
}

// summaryOnly reports a batch whose edit changes only the run's mlflow
// member and summary times (applyBatch): no params, no new name.
func summaryOnly(b *Batch) bool {
	if len(b.Params) > 0 {
		return false
	}
	for _, t := range b.Tags {
		if t.Key == TagRunName {
			return false
		}
	}
	return true
}

// point is a metric of a batch with its value read (CheckBatch accepted
// every value).
type point struct {
	*Metric
	num    float64
	finite bool
}

func parsePoints(ms []Metric) []point {
	pts := make([]point, len(ms))
	for i := range ms {
		v, _ := ParseValue(ms[i].Value)
		pts[i] = point{Metric: &ms[i], num: v, finite: !math.IsNaN(v) && !math.IsInf(v, 0)}
	}
	return pts
}

// row is p as a history row, its value in its stored text.
func (p *point) row() store.MetricPoint {
	return store.MetricPoint{Key: p.Key, Step: p.Step, Timestamp: p.Timestamp, Value: FormatValue(p.num), MetricLinks: p.MetricLinks}
}

// allRows are every point of a batch as history rows.
func allRows(pts []point) []store.MetricPoint {
	rows := make([]store.MetricPoint, len(pts))
	for i := range pts {
		rows[i] = pts[i].row()
	}
	return rows
}

// scalarPoints are the run's scalar series' share of a batch: the finite
// points, each key a series (metric and variant both the key). Of the
// points of one step the series keeps the last.
func scalarPoints(run string, pts []point) []*events.Event {
	evs := make([]events.Event, 0, len(pts))
	for i := range pts {
		p := &pts[i]
		if p.finite {
			evs = append(evs, events.Event{Type: events.Scalar, Task: run, Iter: p.Step, Metric: p.Key, Variant: p.Key,
				Timestamp: p.Timestamp, HasTimestamp: true, Value: p.num})
		}
	}
	out := make([]*events.Event, len(evs))
	for i := range evs {
		out[i] = &evs[i]
	}
	return out
}

// ownRows are the history rows of a batch its run's series do not hold
// alone, when the run takes the batch's events: the points that are not
// finite, a step's points before its last finite one, and points with
// links (InScalars when the series holds them). For most batches, none.
func ownRows(pts []point) []store.MetricPoint {
	type keyStep struct {
		key  string
		step int64
	}
	var last map[keyStep]int // each key and step's last finite point, when a key's steps repeat
	top := make(map[string]int64, 4)
	for i := range pts {
		p := &pts[i]
		if s, seen := top[p.Key]; !seen || p.Step > s {
			top[p.Key] = p.Step
		} else if last == nil {
			last = map[keyStep]int{}
		}
	}
	if last != nil {
		for i := range pts {
			if pts[i].finite {
				last[keyStep{pts[i].Key, pts[i].Step}] = i
			}
		}
	}
	var out []store.MetricPoint
	for i := range pts {
		p := &pts[i]
		held := p.finite
		if held && last != nil {
			held = last[keyStep{p.Key, p.Step}] == i
		}
		if held && p.MetricLinks == (store.MetricLinks{}) {
			continue
		}
		r := p.row()
		r.InScalars = held
		out = append(out, r)
	}
	return out
}

// replacedRows are the stored points of a run's series a batch replaced,
// as history rows.
func replacedRows(pts []events.ReplacedPoint) []store.MetricPoint {
	out := make([]store.MetricPoint, 0, len(pts))
	for _, p := range pts {
		if p.Metric != p.Variant {
			continue // not a series MLflow logs
		}
		out = append(out, store.MetricPoint{Key: p.Metric, Step: p.Iter, Timestamp: p.TS, Value: FormatValue(p.Value)})
	}
	return out
}

// batchLatest is the newest point of each key of a batch (MLflow's rule,
// newer), in key order.
func batchLatest(pts []point) []store.MetricPoint {
	idx := make(map[string]int, 4) // key -> its newest point so far
	for i := range pts {
		p := &pts[i]
		j, ok := idx[p.Key]
		if !ok || newerValue(p.Step, p.Timestamp, p.num, pts[j].Step, pts[j].Timestamp, pts[j].num) {
			idx[p.Key] = i
		}
	}
	out := make([]store.MetricPoint, 0, len(idx))
	for _, i := range idx {
		out = append(out, pts[i].row())
	}
	slices.SortFunc(out, func(a, b store.MetricPoint) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// applyBatch changes the run's document as the batch logs: params (never
// changed once logged), tags (mlflow.runName renames the run) and each
// metric key's latest value. t is the task as the write transaction holds
// it (nil when there is no such run); the maps it holds may be shared, so
// those changed are copied first.
func applyBatch(t *store.Task, b *Batch, best []store.MetricPoint, now jsonx.Time) error {
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
	if len(best) > 0 {
		if len(run.Metrics) == 0 {
			// no history yet: keep it once, in the series
			run.ScalarHistory = true
		}
		run.Metrics = latestOf(run.Metrics, best)
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

// newer reports whether point a replaces b as a key's latest value
// (newerValue).
func newer(a store.MetricPoint, b *store.LatestMetric) bool {
	if a.Step != b.Step || a.Timestamp != b.Timestamp {
		return newerValue(a.Step, a.Timestamp, 0, b.Step, b.Timestamp, 0)
	}
	av, _ := ParseValue(a.Value)
	bv, _ := ParseValue(b.Value)
	return newerValue(a.Step, a.Timestamp, av, b.Step, b.Timestamp, bv)
}

// newerValue is MLflow's rule for a key's latest value: higher step, then
// newer timestamp, then larger value (NaN last).
func newerValue(aStep, aTS int64, av float64, bStep, bTS int64, bv float64) bool {
	if aStep != bStep {
		return aStep > bStep
	}
	if aTS != bTS {
		return aTS > bTS
	}
	if math.IsNaN(bv) {
		return !math.IsNaN(av)
	}
	return av > bv
}
