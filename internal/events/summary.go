package events

import (
	"math"
	"sort"

	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

// MaxLastMetrics bounds the metric/variant pairs kept in last_metrics.
const MaxLastMetrics = 2000

// ignoreIteration lists metrics whose iterations do not move last_iteration
// (machine monitoring reports on its own clock).
var ignoreIteration = map[string]bool{":monitor:machine": true, ":monitor:gpu": true}

// variantFold accumulates one batch's scalar events of a metric/variant.
type variantFold struct {
	metric, variant string
	// the pair's keys in last_metrics (Hash of each name)
	metricKey, variantKey string
	count                 int64
	total                 float64
	value                 float64
	valueIter, valueTS    int64
	first                 float64
	firstIter             int64
	min, max              float64
	minIter, maxIter      int64
	xAxisLabel            *string
}

// Summary folds a batch's events of one task or model, to be merged into
// its record once per batch.
type Summary struct {
	maxIter *int64
	// scalars by metric and variant
	scalars map[[2]string]*variantFold
	// newest event time per metric and type
	metricTypes map[string]map[Type]int64
	// keys is Hash of the names seen: a batch repeats a few names over
	// many events, and every event hashed both of its names twice.
	keys map[string]string
}

// key is Hash(name), computed once per name in the batch.
func (s *Summary) key(name string) string {
	k, ok := s.keys[name]
	if !ok {
		if s.keys == nil {
			s.keys = map[string]string{}
		}
		k = Hash(name)
		s.keys[name] = k
	}
	return k
}

func newSummary() *Summary {
	return &Summary{scalars: map[[2]string]*variantFold{}, metricTypes: map[string]map[Type]int64{}}
}

// add folds one stored event.
func (s *Summary) add(e *Event) {
	if e.HasIter() && !ignoreIteration[e.Metric] && (s.maxIter == nil || e.Iter > *s.maxIter) {
		it := e.Iter
		s.maxIter = &it
	}
	mt := s.metricTypes[e.Metric]
	if mt == nil {
		mt = map[Type]int64{}
		s.metricTypes[e.Metric] = mt
	}
	if e.Timestamp > mt[e.Type] {
		mt[e.Type] = e.Timestamp
	} else if _, ok := mt[e.Type]; !ok {
		mt[e.Type] = e.Timestamp
	}
	if e.Type != Scalar {
		return
	}
	k := [2]string{e.Metric, e.Variant}
	it := e.Iter
	if !e.HasIter() {
		it = 0
	}
	f := s.scalars[k]
	if f == nil {
		s.scalars[k] = &variantFold{metric: e.Metric, variant: e.Variant,
			metricKey: s.key(e.Metric), variantKey: s.key(e.Variant), count: 1, total: e.Value,
			value: e.Value, valueIter: it, valueTS: e.Timestamp, first: e.Value, firstIter: it,
			min: e.Value, max: e.Value, minIter: it, maxIter: it, xAxisLabel: e.XAxisLabel}
		return
	}
	f.count++
	f.total += e.Value
	if it > f.valueIter || (it == f.valueIter && e.Timestamp >= f.valueTS) {
		f.value, f.valueIter, f.valueTS = e.Value, it, e.Timestamp
		if e.XAxisLabel != nil {
			f.xAxisLabel = e.XAxisLabel
		}
	}
	if it < f.firstIter {
		f.first, f.firstIter = e.Value, it
	}
	if e.Value < f.min {
		f.min, f.minIter = e.Value, it
	}
	if e.Value > f.max {
		f.max, f.maxIter = e.Value, it
	}
}

// mergeMetrics merges the folded scalars into a record's last_metrics.
func (s *Summary) mergeMetrics(lm map[string]map[string]*store.MetricSummary) {
	pairs := 0
	for _, vs := range lm {
		pairs += len(vs)
	}
	keys := make([][2]string, 0, len(s.scalars))
	for k := range s.scalars {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i][0] < keys[j][0] || (keys[i][0] == keys[j][0] && keys[i][1] < keys[j][1])
	})
	for _, k := range keys {
		f := s.scalars[k]
		mh, vh := f.metricKey, f.variantKey
		cur := lm[mh][vh]
		if cur == nil {
			if pairs >= MaxLastMetrics {
				continue
			}
			pairs++
			if lm[mh] == nil {
				lm[mh] = map[string]*store.MetricSummary{}
			}
			first, firstIter := jsonx.Float(f.first), f.firstIter
			mean := jsonx.Float(round2(f.total / float64(f.count)))
			lm[mh][vh] = &store.MetricSummary{Metric: f.metric, Variant: f.variant, Value: jsonx.Float(f.value),
				MinValue: jsonx.Float(f.min), MinValueIteration: f.minIter, MaxValue: jsonx.Float(f.max), MaxValueIteration: f.maxIter,
				FirstValue: &first, FirstValueIteration: &firstIter, MeanValue: &mean, Count: f.count, XAxisLabel: f.xAxisLabel}
			continue
		}
		cur.Metric, cur.Variant, cur.Value = f.metric, f.variant, jsonx.Float(f.value)
		if f.xAxisLabel != nil {
			cur.XAxisLabel = f.xAxisLabel
		}
		if f.min < float64(cur.MinValue) || math.IsNaN(float64(cur.MinValue)) {
			cur.MinValue, cur.MinValueIteration = jsonx.Float(f.min), f.minIter
		}
		if f.max > float64(cur.MaxValue) || math.IsNaN(float64(cur.MaxValue)) {
			cur.MaxValue, cur.MaxValueIteration = jsonx.Float(f.max), f.maxIter
		}
		if cur.FirstValue == nil {
			first, firstIter := jsonx.Float(f.first), f.firstIter
			cur.FirstValue, cur.FirstValueIteration = &first, &firstIter
		}
		var mean float64
		if cur.MeanValue != nil {
			mean = float64(*cur.MeanValue)
		}
		m := jsonx.Float(round2((mean*float64(cur.Count) + f.total) / float64(cur.Count+f.count)))
		cur.MeanValue = &m
		cur.Count += f.count
	}
}

// mergeStats merges the newest event times into metric_stats:
// {md5(metric): {metric, event_stats_by_type: {type: {last_update}}}}.
func (s *Summary) mergeStats(ms map[string]any) {
	for metric, types := range s.metricTypes {
		h := s.key(metric)
		entry, _ := ms[h].(map[string]any)
		if entry == nil {
			entry = map[string]any{}
		}
		entry["metric"] = metric
		byType, _ := entry["event_stats_by_type"].(map[string]any)
		if byType == nil {
			byType = map[string]any{}
		}
		for t, ts := range types {
			prev, _ := byType[string(t)].(map[string]any)
			if prev != nil {
				if old, ok := toInt(prev["last_update"]); ok && old > ts {
					continue
				}
			}
			byType[string(t)] = map[string]any{"last_update": ts}
		}
		entry["event_stats_by_type"] = byType
		ms[h] = entry
	}
}

func toInt(v any) (int64, bool) {
	switch x := v.(type) {
	case float64:
		return int64(x), true
	case int64:
		return x, true
	case int:
		return int64(x), true
	}
	return 0, false
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// ApplyTask merges the summary into a task: last_metrics, metric_stats,
// last_iteration, last_update/last_change and active_duration.
func (s *Summary) ApplyTask(t *store.Task, now jsonx.Time, user string) {
	if t.LastMetrics == nil {
		t.LastMetrics = map[string]map[string]*store.MetricSummary{}
	}
	if t.MetricStats == nil {
		t.MetricStats = map[string]any{}
	}
	s.mergeMetrics(t.LastMetrics)
	s.mergeStats(t.MetricStats)
	if s.maxIter != nil && *s.maxIter > t.LastIteration {
		t.LastIteration = *s.maxIter
	}
	t.LastUpdate, t.LastChange, t.LastChangedBy = now, now, user
	if t.Status == taskdom.InProgress && t.Started != nil {
		d := int64(now.Sub(t.Started.Time).Seconds())
		t.ActiveDuration = &d
	}
}

// ApplyModel merges the summary into a model.
func (s *Summary) ApplyModel(m *store.Model, now jsonx.Time, user string) {
	if m.LastMetrics == nil {
		m.LastMetrics = map[string]map[string]*store.MetricSummary{}
	}
	s.mergeMetrics(m.LastMetrics)
	if s.maxIter != nil && *s.maxIter > m.LastIteration {
		m.LastIteration = *s.maxIter
	}
	m.LastUpdate, m.LastChange, m.LastChangedBy = now, now, user
}

// changesNames tells whether merging the summary into lm changes the
// names its entries hold: a metric or variant added (what a task's first
// batch does), or an entry whose stored names differ from the reported
// ones (written by an older version or imported). The task's name index
// then counts the change.
func (s *Summary) changesNames(lm map[string]map[string]*store.MetricSummary) bool {
	for _, f := range s.scalars {
		cur := lm[f.metricKey][f.variantKey]
		if cur == nil || cur.Metric != f.metric || cur.Variant != f.variant {
			return true
		}
	}
	return false
}

// nameSet is the metric/variant names of a last_metrics as the task name
// index counts them: each entry's keys and the names it holds.
type nameSet map[store.MetricVariantName]bool

func namesOf(lm map[string]map[string]*store.MetricSummary) nameSet {
	out := nameSet{}
	for mk, vs := range lm {
		for vk, m := range vs {
			if m != nil {
				out[store.MetricVariantName{Metric: m.Metric, Variant: m.Variant, MetricHash: mk, VariantHash: vk}] = true
			}
		}
	}
	return out
}
