package mlflow

import (
	"context"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// Trace searches: MLflow's trace filter language (the run grammar of
// filter.go: clauses joined by AND) over a trace's attributes, tags and
// metadata, evaluated on the traces of the experiments read newest first
// (at most MaxTraceScan of them).

// Kinds of a trace filter's left side beyond the run filter's.
const KindMetadata = "metadata"

var tracePrefixes = map[string]string{
	"attribute": KindAttribute, "attributes": KindAttribute, "attr": KindAttribute, "trace": KindAttribute,
	"tag": KindTag, "tags": KindTag,
	"metadata": KindMetadata, "request_metadata": KindMetadata,
}

// traceAttrs are the attributes: true for numeric ones. Synonyms are
// MLflow's v2 and v3 names for one field.
var traceAttrs = map[string]bool{
	"request_id": false, "trace_id": false, "status": false, "state": false, "name": false,
	"run_id": false, "client_request_id": false, "experiment_id": false,
	"timestamp_ms": true, "timestamp": true, "request_time": true,
	"execution_time_ms": true, "execution_time": true, "execution_duration": true,
}

var traceAttrCanon = map[string]string{
	"trace_id": "request_id", "state": "status", "timestamp": "timestamp_ms", "request_time": "timestamp_ms",
	"execution_time": "execution_time_ms", "execution_duration": "execution_time_ms",
}

func traceAttrNames() string {
	var out []string
	for k := range traceAttrs {
		out = append(out, "'"+k+"'")
	}
	slices.Sort(out)
	return "[" + strings.Join(out, ", ") + "]"
}

// traceIdent reads a filter's or order term's left side.
func traceIdent(s string, toks []token) (kind, key string, n int, err error) {
	if len(toks) == 0 || toks[0].kind != "ident" {
		return "", "", 0, filterErr("Invalid filter '%s': expected an identifier", s)
	}
	t := toks[0].text
	prefix, rest, dotted := strings.Cut(t, ".")
	kind, key, n = KindAttribute, t, 1
	if dotted {
		k, ok := tracePrefixes[strings.ToLower(prefix)]
		if !ok {
			return "", "", 0, filterErr("Invalid entity type '%s'. Valid values are ['attribute', 'tag', 'metadata']", prefix)
		}
		kind, key = k, rest
		if rest == "" {
			if len(toks) < 2 || (toks[1].kind != "quoted" && toks[1].kind != "dquoted") {
				return "", "", 0, filterErr("Invalid filter '%s': '%s' names no key", s, t)
			}
			key, n = toks[1].text, 2
		}
	}
	if kind == KindAttribute {
		if _, ok := traceAttrs[key]; !ok {
			return "", "", 0, filterErr("Invalid attribute key '%s' specified. Valid keys are %s", key, traceAttrNames())
		}
		if c, ok := traceAttrCanon[key]; ok {
			key = c
		}
	}
	return kind, key, n, nil
}

// ParseTraceFilter parses a trace search filter.
func ParseTraceFilter(s string) ([]Clause, error) {
	return clauses(s, func(toks []token) (Clause, int, error) {
		kind, key, n, err := traceIdent(s, toks)
		if err != nil {
			return Clause{}, 0, err
		}
		c := Clause{Kind: kind, Key: key}
		op, n, err := comparison(s, toks, n, key)
		if err != nil {
			return Clause{}, 0, err
		}
		c.Op = op
		numeric := kind == KindAttribute && traceAttrs[key]
		if op == "IN" || op == "NOT IN" {
			if numeric {
				return Clause{}, 0, filterErr("Invalid comparator '%s' for attribute '%s'", op, key)
			}
			vals, m, err := list(s, toks[n:])
			if err != nil {
				return Clause{}, 0, err
			}
			c.Str = vals
			return c, n + m, nil
		}
		if n >= len(toks) {
			return Clause{}, 0, filterErr("Invalid filter '%s': '%s %s' has no value", s, key, op)
		}
		v := toks[n]
		if numeric {
			if v.kind != "num" {
				return Clause{}, 0, filterErr("Invalid comparator or value for attribute '%s': expected a number, got '%s'", key, v.text)
			}
			if op == "LIKE" || op == "ILIKE" {
				return Clause{}, 0, filterErr("Invalid comparator '%s' not one of '['=', '!=', '>', '>=', '<', '<=']'", op)
			}
			f, perr := strconv.ParseFloat(v.text, 64)
			if perr != nil {
				return Clause{}, 0, filterErr("Invalid numeric value '%s' for attribute '%s'", v.text, key)
			}
			c.Num, c.Numeric = f, true
			return c, n + 1, nil
		}
		if v.kind != "str" && v.kind != "dquoted" {
			return Clause{}, 0, filterErr("Invalid value '%s' for %s '%s': must be a quoted string", v.text, kind, key)
		}
		switch op {
		case "<", ">", "<=", ">=":
			return Clause{}, 0, filterErr("Invalid comparator '%s' not one of '['=', '!=', 'LIKE', 'ILIKE', 'IN', 'NOT IN']'", op)
		}
		c.Str = []string{v.text}
		return c, n + 1, nil
	})
}

// traceOrder is one order_by term.
type traceOrder struct {
	Kind, Key string
	Desc      bool
}

// parseTraceOrder parses "<field> [ASC|DESC]" terms.
func parseTraceOrder(terms []string) ([]traceOrder, error) {
	if err := checkOrderTerms(terms); err != nil {
		return nil, err
	}
	var out []traceOrder
	for _, term := range terms {
		toks, err := lexOrderTerm(term)
		if err != nil {
			return nil, err
		}
		kind, key, n, err := traceIdent(term, toks)
		if err != nil {
			return nil, err
		}
		o := traceOrder{Kind: kind, Key: key}
		if o.Desc, err = orderDesc(term, toks[n:]); err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

// traceString is a trace's string value of kind.key (present: it has one).
func traceString(t *Trace, kind, key string) (string, bool) {
	switch kind {
	case KindTag:
		v, ok := t.Doc.Tags[key]
		return v, ok
	case KindMetadata:
		v, ok := t.Doc.Metadata[key]
		return v, ok
	}
	switch key {
	case "request_id":
		return t.ID, true
	case "status":
		return t.State, true
	case "name":
		v, ok := t.Doc.Tags[TraceTagName]
		return v, ok
	case "client_request_id":
		return t.Doc.ClientRequestID, t.Doc.ClientRequestID != ""
	case "experiment_id":
		return t.ExperimentID, true
	}
	return "", false
}

func traceNumber(t *Trace, key string) float64 {
	if key == "execution_time_ms" {
		return float64(t.Duration)
	}
	return float64(t.RequestTime)
}

// matchTrace applies every clause to t.
func matchTrace(t *Trace, cs []Clause) bool {
	for _, c := range cs {
		if c.Kind == KindAttribute && c.Key == "run_id" {
			// any of the trace's runs: the one it was made under, or a linked one
			runs := TraceRuns(t)
			ok := slices.ContainsFunc(runs, func(r string) bool { return matchString(c, r, true) })
			if c.Op == "!=" || c.Op == "NOT IN" {
				ok = !slices.ContainsFunc(runs, func(r string) bool { return !matchString(c, r, true) })
			}
			if !ok {
				return false
			}
			continue
		}
		if c.Numeric {
			if !matchNumber(c, traceNumber(t, c.Key)) {
				return false
			}
			continue
		}
		v, ok := traceString(t, c.Kind, c.Key)
		if c.Kind == KindAttribute && c.Key == "status" {
			v = strings.TrimPrefix(v, "TRACE_STATUS_")
		}
		if !matchString(c, v, ok) {
			return false
		}
	}
	return true
}

// compareTraces orders a before b by os (then the default: newest
// first, then id).
func compareTraces(a, b *Trace, os []traceOrder) int {
	for _, o := range os {
		var r int
		if o.Kind == KindAttribute && traceAttrs[o.Key] {
			r = cmpFloat(traceNumber(a, o.Key), traceNumber(b, o.Key))
		} else {
			va, oka := traceString(a, o.Kind, o.Key)
			vb, okb := traceString(b, o.Kind, o.Key)
			if oka != okb { // missing values last, either way
				if oka {
					return -1
				}
				return 1
			}
			r = strings.Compare(va, vb)
		}
		if o.Desc {
			r = -r
		}
		if r != 0 {
			return r
		}
	}
	if a.RequestTime != b.RequestTime {
		return cmpFloat(float64(b.RequestTime), float64(a.RequestTime))
	}
	return strings.Compare(a.ID, b.ID)
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TraceSearch is a search-traces request.
type TraceSearch struct {
	Company       string
	ExperimentIDs []string
	Filter        string
	OrderBy       []string
	MaxResults    int
	PageToken     string
}

// matchingTraces reads the traces of experiments that pass filter.
func matchingTraces(ctx context.Context, env *domain.Env, company string, experiments []string, filter string) ([]*Trace, error) {
	if len(experiments) == 0 {
		return nil, apierr.MLflowInvalidParameter("At least one experiment id (trace location) is required")
	}
	if len(experiments) > MaxTraceExperiment {
		return nil, apierr.MLflowInvalidParameter("At most %d experiments a search, got %d", MaxTraceExperiment, len(experiments))
	}
	cs, err := ParseTraceFilter(filter)
	if err != nil {
		return nil, err
	}
	all, err := env.DB.ExperimentTraces(ctx, company, experiments, MaxTraceScan)
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for _, t := range all {
		if matchTrace(t, cs) {
			out = append(out, t)
		}
	}
	return out, nil
}

// SearchTraces answers a page of the traces that match, and the next
// page's token ("" on the last).
func SearchTraces(ctx context.Context, env *domain.Env, s TraceSearch) ([]*Trace, string, error) {
	max := s.MaxResults
	if max == 0 {
		max = DefTraceResults
	}
	if max < 0 || max > MaxTraceResults {
		return nil, "", apierr.MLflowInvalidParameter("Invalid value %d for parameter 'max_results': 1 to %d", max, MaxTraceResults)
	}
	order, err := parseTraceOrder(s.OrderBy)
	if err != nil {
		return nil, "", err
	}
	offset, err := ParsePageToken(s.PageToken)
	if err != nil {
		return nil, "", err
	}
	list, err := matchingTraces(ctx, env, s.Company, s.ExperimentIDs, s.Filter)
	if err != nil {
		return nil, "", err
	}
	slices.SortStableFunc(list, func(a, b *Trace) int { return compareTraces(a, b, order) })
	if offset >= len(list) {
		return nil, "", nil
	}
	end := min(offset+max, len(list))
	next := ""
	if end < len(list) {
		next = PageToken(end)
	}
	return list[offset:end], next, nil
}

// TraceCorrelation is how two trace filters go together (NPMI).
type TraceCorrelation struct {
	NPMI, NPMISmoothed                            float64
	Filter1Count, Filter2Count, JointCount, Total int
}

// CorrelateTraceFilters counts the traces (of base, when given) each
// filter and both match, and their normalized pointwise mutual
// information: NaN when no trace matches both.
func CorrelateTraceFilters(ctx context.Context, env *domain.Env, company string, experiments []string, f1, f2, base string) (*TraceCorrelation, error) {
	c1, err := ParseTraceFilter(f1)
	if err != nil {
		return nil, err
	}
	c2, err := ParseTraceFilter(f2)
	if err != nil {
		return nil, err
	}
	list, err := matchingTraces(ctx, env, company, experiments, base)
	if err != nil {
		return nil, err
	}
	out := &TraceCorrelation{Total: len(list)}
	for _, t := range list {
		a, b := matchTrace(t, c1), matchTrace(t, c2)
		if a {
			out.Filter1Count++
		}
		if b {
			out.Filter2Count++
		}
		if a && b {
			out.JointCount++
		}
	}
	out.NPMI = npmi(float64(out.JointCount), float64(out.Filter1Count), float64(out.Filter2Count), float64(out.Total))
	// smoothed: half a count added to each cell of the 2x2 table, so
	// that empty cells give a finite value
	out.NPMISmoothed = npmi(float64(out.JointCount)+0.5, float64(out.Filter1Count)+1, float64(out.Filter2Count)+1, float64(out.Total)+2)
	return out, nil
}

func npmi(joint, n1, n2, total float64) float64 {
	if joint <= 0 || n1 <= 0 || n2 <= 0 || total <= 0 {
		return math.NaN()
	}
	p12, p1, p2 := joint/total, n1/total, n2/total
	if p12 >= 1 {
		return 1
	}
	return math.Log(p12/(p1*p2)) / -math.Log(p12)
}

// ProjectTraces lists a page of the traces of project id (the
// experiment it is), newest first, for Trove's own UI.
func ProjectTraces(ctx context.Context, env *domain.Env, company, id string, offset, limit int) ([]*Trace, error) {
	p, err := env.DB.Projects().Get(ctx, env.DB.Read(), id, company)
	if errors.Is(err, store.ErrNotFound) {
		return nil, apierr.InvalidProjectID(id)
	}
	if err != nil {
		return nil, err
	}
	if offset < 0 || limit < 1 || limit > MaxTraceResults || offset > MaxTraceScan {
		return nil, apierr.MLflowInvalidParameter("Invalid page: page_size 1 to %d, at most %d traces in all", MaxTraceResults, MaxTraceScan)
	}
	list, err := env.DB.ExperimentTraces(ctx, company, []string{ExperimentID(p)}, offset+limit)
	if err != nil || offset >= len(list) {
		return nil, err
	}
	return list[offset:], nil
}
