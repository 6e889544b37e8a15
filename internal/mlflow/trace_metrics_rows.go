package mlflow

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// The rows trace metrics aggregate: one per trace, span or assessment
// that passes the filters, with its time (ms), its value of each asked
// dimension and the metric's value. A row missing a dimension or the
// value is left out, as MLflow leaves out NULLs.

// Where MLflow keeps what the metrics read.
const (
	traceMetaTokenUsage = "mlflow.trace.tokenUsage" // JSON: input_tokens, output_tokens, ...
	traceMetaSession    = "mlflow.trace.session"
	spanAttrType        = "mlflow.spanType" // attribute values are JSON text
	spanAttrModel       = "mlflow.llm.model"
	spanAttrProvider    = "mlflow.llm.provider"
	spanAttrCost        = "mlflow.llm.cost" // JSON: input_cost, output_cost, total_cost
)

type metricRow struct {
	time  int64
	dims  []string
	value float64
	// key is what session_count counts distinctly (else "").
	key string
}

// metricRows reads the rows of q's view.
func metricRows(ctx context.Context, env *domain.Env, q *TraceMetricsQuery, fs []metricFilter) ([]metricRow, error) {
	all, err := env.DB.TracesInRange(ctx, q.Company, q.ExperimentIDs, q.StartMs, q.EndMs, MaxTraceScan, traceRead(q, fs))
	if err != nil {
		return nil, err
	}
	traces := all[:0]
	for _, t := range all {
		if matchTraceFilters(t, fs) {
			traces = append(traces, t)
		}
	}
	switch q.View {
	case ViewSpans:
		return spanRows(ctx, env, q, fs, traces)
	case ViewAssessments:
		return assessmentRows(ctx, env, q, fs, traces)
	}
	var out []metricRow
	for _, t := range traces {
		if r, ok := traceRow(q, t); ok {
			out = append(out, r)
		}
	}
	return out, nil
}

// traceRead is what q reads of a trace's document: the whole (tags,
// metadata, linked runs) for a tag or metadata filter, else only the
// entries its dimension or metric reads.
func traceRead(q *TraceMetricsQuery, fs []metricFilter) store.TraceRead {
	for _, f := range fs {
		if f.view == "trace" && f.entity != "status" {
			return store.TraceRead{Doc: true}
		}
	}
	var r store.TraceRead
	if q.View != ViewTraces {
		return r
	}
	if slices.Contains(q.Dimensions, "trace_name") {
		r.Tags = []string{TraceTagName}
	}
	switch q.Metric {
	case "trace_count", "latency":
	case "session_count":
		r.Metadata = []string{traceMetaSession}
	default:
		r.Metadata = []string{traceMetaTokenUsage}
	}
	return r
}

// rowDims reads the dimensions asked of a row; false when one is missing.
func rowDims(names []string, field func(string) (string, bool)) ([]string, bool) {
	out := make([]string, len(names))
	for i, n := range names {
		v, ok := field(n)
		if !ok {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

func traceRow(q *TraceMetricsQuery, t *Trace) (metricRow, bool) {
	dims, ok := rowDims(q.Dimensions, func(d string) (string, bool) {
		if d == "trace_status" {
			return t.State, true
		}
		name, ok := t.Doc.Tags[TraceTagName]
		return name, ok
	})
	if !ok {
		return metricRow{}, false
	}
	r := metricRow{time: t.RequestTime, dims: dims}
	switch q.Metric {
	case "trace_count":
		return r, true
	case "session_count":
		r.key = t.Doc.Metadata[traceMetaSession]
		return r, r.key != ""
	case "latency":
		r.value = float64(t.Duration)
		return r, t.State != TraceInProgress
	}
	r.value, ok = jsonNumberMember(t.Doc.Metadata[traceMetaTokenUsage], q.Metric)
	return r, ok
}

// jsonNumberMember reads member name of a JSON object's text as a finite
// number.
func jsonNumberMember(text, name string) (float64, bool) {
	if text == "" {
		return 0, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &m) != nil {
		return 0, false
	}
	var v float64
	if json.Unmarshal(m[name], &v) != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// storedSpan is what the metrics read of a stored span (MLflow's span
// dictionary).
type storedSpan struct {
	Name       string            `json:"name"`
	Start      int64             `json:"start_time_unix_nano"`
	End        int64             `json:"end_time_unix_nano"`
	Attributes map[string]string `json:"attributes"`
	Status     struct {
		Code string `json:"code"`
	} `json:"status"`
}

// attr reads a span attribute holding a JSON string (or plain text).
func (sp *storedSpan) attr(key string) (string, bool) {
	raw, ok := sp.Attributes[key]
	if !ok || raw == "" {
		return "", false
	}
	var s string
	if json.Unmarshal([]byte(raw), &s) == nil {
		return s, true
	}
	return raw, true
}

// status is the span's status code as MLflow names it: OK, ERROR, UNSET.
func (sp *storedSpan) status() string {
	c := strings.TrimPrefix(sp.Status.Code, "STATUS_CODE_")
	if c == "" {
		return "UNSET"
	}
	return c
}

func (sp *storedSpan) field(entity string) string {
	switch entity {
	case "name":
		return sp.Name
	case "status":
		return sp.status()
	}
	v, _ := sp.attr(spanAttrType)
	return v
}

func spanRows(ctx context.Context, env *domain.Env, q *TraceMetricsQuery, fs []metricFilter, traces []*Trace) ([]metricRow, error) {
	ids := make([]string, len(traces))
	for i, t := range traces {
		ids[i] = t.ID
	}
	var out []metricRow
	err := env.DB.EachTraceSpan(ctx, q.Company, ids, MaxTraceMetricSpans, func(_, doc string) error {
		var sp storedSpan
		if json.Unmarshal([]byte(doc), &sp) != nil || !matchOwnFilters("span", fs, sp.field) {
			return nil
		}
		dims, ok := rowDims(q.Dimensions, func(d string) (string, bool) {
			switch d {
			case "span_name":
				return sp.Name, true
			case "span_status":
				return sp.status(), true
			case "span_type":
				return sp.attr(spanAttrType)
			case "span_model_name":
				return sp.attr(spanAttrModel)
			}
			return sp.attr(spanAttrProvider)
		})
		if !ok {
			return nil
		}
		r := metricRow{time: floorDiv(sp.Start, 1_000_000), dims: dims}
		switch q.Metric {
		case "span_count":
		case "latency":
			if sp.End == 0 || sp.End < sp.Start {
				return nil // not ended
			}
			r.value = float64(floorDiv(sp.End-sp.Start, 1_000_000))
		default: // the costs, kept only for spans started in the range
			if (q.StartMs != nil && r.time < *q.StartMs) || (q.EndMs != nil && r.time > *q.EndMs) {
				return nil
			}
			if r.value, ok = jsonNumberMember(sp.Attributes[spanAttrCost], q.Metric); !ok {
				return nil
			}
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

func floorDiv(a, b int64) int64 {
	d := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		d--
	}
	return d
}

// assessmentValue is the value of an assessment's feedback or expectation
// as JSON text ("" when it has none).
func assessmentValue(a *Assessment) (kind, value string) {
	raw, kind := a.Feedback, "feedback"
	if len(raw) == 0 {
		raw, kind = a.Expectation, "expectation"
	}
	var m struct {
		Value      json.RawMessage `json:"value"`
		Serialized *struct {
			Value string `json:"value"`
		} `json:"serialized_value"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return kind, ""
	}
	if len(m.Value) > 0 {
		return kind, compactJSON(m.Value)
	}
	if m.Serialized != nil && json.Valid([]byte(m.Serialized.Value)) {
		return kind, compactJSON(json.RawMessage(m.Serialized.Value))
	}
	return kind, "null"
}

func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// numericAssessment is MLflow's number for a value: a finite number
// itself, true/false and "yes"/"no" as 1/0; nothing else.
func numericAssessment(text string) (float64, bool) {
	var v any
	if json.Unmarshal([]byte(text), &v) != nil {
		return 0, false
	}
	switch x := v.(type) {
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case float64:
		return x, !math.IsInf(x, 0) && !math.IsNaN(x)
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "yes":
			return 1, true
		case "no":
			return 0, true
		}
	}
	return 0, false
}

func assessmentRows(ctx context.Context, env *domain.Env, q *TraceMetricsQuery, fs []metricFilter, traces []*Trace) ([]metricRow, error) {
	times := make(map[string]int64, len(traces))
	ids := make([]string, len(traces))
	for i, t := range traces {
		ids[i], times[t.ID] = t.ID, t.RequestTime
	}
	var out []metricRow
	err := env.DB.EachTraceAssessment(ctx, q.Company, ids, MaxTraceMetricAssessments, func(trace, doc string) error {
		var a Assessment
		if json.Unmarshal([]byte(doc), &a) != nil || !a.Valid { // an overridden one is not counted
			return nil
		}
		kind, value := assessmentValue(&a)
		if !matchOwnFilters("assessment", fs, func(entity string) string {
			if entity == "type" {
				return kind
			}
			return a.Name
		}) {
			return nil
		}
		dims, ok := rowDims(q.Dimensions, func(d string) (string, bool) {
			if d == "assessment_value" {
				return value, value != ""
			}
			return a.Name, true
		})
		if !ok {
			return nil
		}
		r := metricRow{time: times[trace], dims: dims}
		if q.Metric == "assessment_value" {
			if r.value, ok = numericAssessment(value); !ok {
				return nil
			}
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

// percentileKey is the answer's key of a percentile (MLflow's: "P50.0").
func percentileKey(p float64) string {
	s := strconv.FormatFloat(p, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return "P" + s
}
