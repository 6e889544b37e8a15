package mlflow

import (
	"slices"
	"strings"
)

// The filters of traces/metrics: each string one clause
// `<view>.<entity>[.<key>] = <quoted value>`, the filters of a call all
// holding (AND). Views and their entities: trace (status; tag.<key>,
// metadata.<key>), span (name, status, type; SPANS view only),
// assessment (name, type; ASSESSMENTS view only). A key may be given in
// backticks or double quotes (`trace.metadata.`mlflow.trace.user``).

// metricFilter is one parsed clause.
type metricFilter struct {
	view, entity, key, value string
}

// metricFilterEntities: for each view of a filter, its entities and
// whether each takes a key.
var metricFilterEntities = map[string]map[string]bool{
	"trace":      {"status": false, "tag": true, "metadata": true},
	"span":       {"name": false, "status": false, "type": false},
	"assessment": {"name": false, "type": false},
}

// parseMetricFilters parses filters for a query of view (ViewTraces, ...).
func parseMetricFilters(filters []string, view string) ([]metricFilter, error) {
	out := make([]metricFilter, 0, len(filters))
	for _, s := range filters {
		f, err := parseMetricFilter(s)
		if err != nil {
			return nil, err
		}
		if f.view == "span" && view != ViewSpans {
			return nil, filterErr("Invalid filter '%s': span filters are only supported for the %s view, got %s", s, ViewSpans, view)
		}
		if f.view == "assessment" && view != ViewAssessments {
			return nil, filterErr("Invalid filter '%s': assessment filters are only supported for the %s view, got %s", s, ViewAssessments, view)
		}
		out = append(out, f)
	}
	return out, nil
}

// parseMetricFilter parses one clause.
func parseMetricFilter(s string) (metricFilter, error) {
	if len(s) > MaxFilterLen {
		return metricFilter{}, filterErr("Invalid value for parameter 'filters': a filter is at most %d bytes, got %d", MaxFilterLen, len(s))
	}
	toks, err := lex(s)
	if err != nil {
		return metricFilter{}, err
	}
	if len(toks) == 0 || toks[0].kind != "ident" {
		return metricFilter{}, filterErr("Invalid filter '%s': expected '<view>.<entity> = <value>' with view trace, span or assessment", s)
	}
	ident := toks[0].text
	n := 1
	var quotedKey *string
	if strings.HasSuffix(ident, ".") { // <view>.<entity>.`key`
		if len(toks) < 2 || (toks[1].kind != "quoted" && toks[1].kind != "dquoted") {
			return metricFilter{}, filterErr("Invalid filter '%s': '%s' names no key", s, ident)
		}
		ident = strings.TrimSuffix(ident, ".")
		quotedKey, n = &toks[1].text, 2
	}
	parts := strings.SplitN(ident, ".", 3)
	if len(parts) < 2 || (quotedKey != nil && len(parts) != 2) {
		return metricFilter{}, filterErr("Invalid identifier '%s' in filter '%s': columns are 'trace.<entity>', 'span.<entity>' or 'assessment.<entity>'", ident, s)
	}
	f := metricFilter{view: parts[0], entity: parts[1]}
	entities, ok := metricFilterEntities[f.view]
	if !ok {
		return metricFilter{}, filterErr("Invalid view type '%s' in filter '%s': one of ['assessment', 'span', 'trace']", f.view, s)
	}
	needsKey, ok := entities[f.entity]
	if !ok {
		var names []string
		for e := range entities {
			names = append(names, e)
		}
		slices.Sort(names)
		return metricFilter{}, filterErr("Invalid entity '%s' for view type '%s' in filter '%s': one of %s", f.entity, f.view, s, sortedNames(names))
	}
	switch {
	case quotedKey != nil:
		f.key = *quotedKey
	case len(parts) == 3:
		f.key = parts[2]
	}
	if needsKey && f.key == "" {
		return metricFilter{}, filterErr("Invalid filter '%s': filtering by %s requires a key, e.g. '%s.%s.<key> = <value>'", s, f.entity, f.view, f.entity)
	}
	if !needsKey && (f.key != "" || quotedKey != nil) {
		return metricFilter{}, filterErr("Invalid filter '%s': filtering by %s takes no key, use '%s.%s'", s, f.entity, f.view, f.entity)
	}
	if len(toks) <= n || toks[n].kind != "op" {
		return metricFilter{}, filterErr("Invalid filter '%s': expected a comparison after '%s'", s, ident)
	}
	if toks[n].text != "=" {
		return metricFilter{}, filterErr("Invalid comparator '%s' in filter '%s': only '=' is supported", toks[n].text, s)
	}
	n++
	if len(toks) <= n || (toks[n].kind != "str" && toks[n].kind != "dquoted") {
		return metricFilter{}, filterErr("Invalid filter '%s': expected a quoted string value (e.g. 'my-value')", s)
	}
	f.value = toks[n].text
	if len(toks) > n+1 {
		return metricFilter{}, filterErr("Invalid filter '%s': one clause a filter (give several filters to AND them)", s)
	}
	return f, nil
}

// matchTraceFilters says whether trace t passes the trace-level filters.
func matchTraceFilters(t *Trace, fs []metricFilter) bool {
	for _, f := range fs {
		if f.view != "trace" {
			continue
		}
		switch f.entity {
		case "status":
			if t.State != f.value {
				return false
			}
		case "tag":
			if v, ok := t.Doc.Tags[f.key]; !ok || v != f.value {
				return false
			}
		case "metadata":
			v, ok := t.Doc.Metadata[f.key]
			matched := ok && v == f.value
			// a run a trace was linked to counts as its source run, as in
			// trace search
			if !matched && f.key == TraceMetaSourceRun {
				matched = slices.Contains(t.Doc.RunIDs, f.value)
			}
			if !matched {
				return false
			}
		}
	}
	return true
}

// matchOwnFilters says whether a span or an assessment passes the
// filters of its view, field giving its value of an entity.
func matchOwnFilters(view string, fs []metricFilter, field func(entity string) string) bool {
	for _, f := range fs {
		if f.view == view && field(f.entity) != f.value {
			return false
		}
	}
	return true
}
