package store

import (
	"encoding/json"
	"maps"
	"slices"
)

// Ingest rewrites a task with every batch, and a batch changes only the
// task's summary members (appendSummary). EncodeTask keeps from one
// encoding what the next needs unchanged: the other members' encoding and
// fingerprints, and last_metrics' key order and names' fingerprint (valid
// while the keys and names stay: checked, not assumed).

// TaskMemo is what EncodeTask keeps of a task's encoding for the next.
type TaskMemo struct {
	rest                 []byte
	paramsSig, modelsSig any
	order                lmOrder
	metricsSig           any
}

// EncodeTask encodes a task as Table.Encode does. With the memo of an
// earlier encoding of the same task, the task must not have changed since
// but in its summary members (ingest's changes) and mlflow: the encoding
// of the others is reused. The record carries the memo for the next call.
func EncodeTask(t *Task, memo *TaskMemo) (*EncodedRecord, error) {
	m := &TaskMemo{}
	if memo != nil {
		m.rest, m.paramsSig, m.modelsSig = memo.rest, memo.paramsSig, memo.modelsSig
	} else {
		rest, err := t.encodeRest()
		if err != nil {
			return nil, err
		}
		m.rest, m.paramsSig, m.modelsSig = rest, paramsSig(t.Hyperparams), modelsSig(t.Models.Input)
	}
	if memo != nil && memo.order.fits(t.LastMetrics) {
		m.order, m.metricsSig = memo.order, memo.metricsSig
	} else {
		m.order = orderOf(t.LastMetrics)
		m.metricsSig = m.order.sig()
	}
	doc, err := t.appendDocWithRest(nil, m.rest, m.order)
	if err != nil {
		return nil, err
	}
	return &EncodedRecord{ID: t.ID, Doc: string(doc), Cols: t.columnValues(m.paramsSig, m.metricsSig, m.modelsSig), TaskMemo: m}, nil
}

// lmOrder is last_metrics' keys as documents write them (metrics in byte
// order, each with its variants in byte order), with the names each entry
// held when it was taken.
type lmOrder []lmMetric

type lmMetric struct {
	key      string
	null     bool
	variants []lmVariant
}

type lmVariant struct {
	key             string
	null            bool
	metric, variant string
}

func orderOf(lm map[string]map[string]*MetricSummary) lmOrder {
	o := make(lmOrder, 0, len(lm))
	for _, mk := range slices.Sorted(maps.Keys(lm)) {
		vs := lm[mk]
		m := lmMetric{key: mk, null: vs == nil, variants: make([]lmVariant, 0, len(vs))}
		for _, vk := range slices.Sorted(maps.Keys(vs)) {
			v := lmVariant{key: vk, null: vs[vk] == nil}
			if s := vs[vk]; s != nil {
				v.metric, v.variant = s.Metric, s.Variant
			}
			m.variants = append(m.variants, v)
		}
		o = append(o, m)
	}
	return o
}

// fits tells whether lm has exactly o's keys, nil where o's are, and
// entries holding o's names: then o is its order and o.sig() its
// fingerprint. (Equal counts and every key of o present make equal sets.)
func (o lmOrder) fits(lm map[string]map[string]*MetricSummary) bool {
	if o == nil || len(lm) != len(o) {
		return false
	}
	for _, m := range o {
		vs, ok := lm[m.key]
		if !ok || (vs == nil) != m.null || len(vs) != len(m.variants) {
			return false
		}
		for _, v := range m.variants {
			s, ok := vs[v.key]
			if !ok || (s == nil) != v.null || (s != nil && (s.Metric != v.metric || s.Variant != v.variant)) {
				return false
			}
		}
	}
	return true
}

// sig is metricsSig of the last_metrics o was taken from.
func (o lmOrder) sig() any {
	if len(o) == 0 {
		return ""
	}
	var keys []string
	for _, m := range o {
		for _, v := range m.variants {
			if !v.null {
				keys = append(keys, m.key, v.key, v.metric, v.variant)
			}
		}
	}
	b, err := json.Marshal(keys)
	if err != nil {
		return nil
	}
	return digest(b)
}
