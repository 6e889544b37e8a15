package events

import "github.com/trove-ml/trove/internal/store"

// summaryCopy is a copy of t that Summary.ApplyTask may change while t
// stays as it was: ApplyTask sets plain fields (last_iteration, times,
// active_duration's pointer), and changes last_metrics entries and
// metric_stats maps in place, so those are copied; the rest of the task
// (hyper-parameters, configuration, execution, ...) is shared, read-only.
// This replaces decoding a fresh task from its document per batch.
func summaryCopy(t *store.Task) *store.Task {
	c := *t
	if t.LastMetrics != nil {
		c.LastMetrics = make(map[string]map[string]*store.MetricSummary, len(t.LastMetrics))
		for mk, vs := range t.LastMetrics {
			if vs == nil {
				c.LastMetrics[mk] = nil
				continue
			}
			cv := make(map[string]*store.MetricSummary, len(vs))
			for vk, s := range vs {
				if s != nil {
					sc := *s // its pointer members are replaced, never written through
					s = &sc
				}
				cv[vk] = s
			}
			c.LastMetrics[mk] = cv
		}
	}
	if t.MetricStats != nil {
		c.MetricStats = make(map[string]any, len(t.MetricStats))
		for k, v := range t.MetricStats {
			c.MetricStats[k] = copyStatsEntry(v)
		}
	}
	return &c
}

// copyStatsEntry copies a metric_stats entry down to its per-type map,
// the depth mergeStats writes into (the per-type values are replaced).
func copyStatsEntry(v any) any {
	entry, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(entry))
	for k, x := range entry {
		if byType, ok := x.(map[string]any); ok && k == "event_stats_by_type" {
			bt := make(map[string]any, len(byType))
			for t, s := range byType {
				bt[t] = s
			}
			x = bt
		}
		out[k] = x
	}
	return out
}
