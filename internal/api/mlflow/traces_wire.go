package mlflow

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/trove-ml/trove/internal/mlflow"
)

// The shapes of traces and assessments (MLflow's protobuf JSON: v3's
// TraceInfoV3 with Timestamp and Duration strings, v2's TraceInfo with
// milliseconds and key/value lists).

type traceLocationJSON struct {
	Type             string `json:"type"`
	MLflowExperiment *struct {
		ExperimentID string `json:"experiment_id"`
	} `json:"mlflow_experiment,omitempty"`
}

type traceInfoV3JSON struct {
	TraceID           string            `json:"trace_id"`
	ClientRequestID   string            `json:"client_request_id,omitempty"`
	TraceLocation     traceLocationJSON `json:"trace_location"`
	RequestPreview    string            `json:"request_preview,omitempty"`
	ResponsePreview   string            `json:"response_preview,omitempty"`
	RequestTime       string            `json:"request_time"`
	ExecutionDuration string            `json:"execution_duration,omitempty"`
	State             string            `json:"state"`
	TraceMetadata     map[string]string `json:"trace_metadata,omitempty"`
	Assessments       []*assessmentJSON `json:"assessments,omitempty"`
	Tags              map[string]string `json:"tags,omitempty"`
}

// traceInfoV3In is a TraceInfoV3 as a client sends it (request and
// response are older names of the previews).
type traceInfoV3In struct {
	traceInfoV3JSON
	Request           string          `json:"request"`
	Response          string          `json:"response"`
	RequestTime       json.RawMessage `json:"request_time"`
	ExecutionDuration json.RawMessage `json:"execution_duration"`
	Assessments       json.RawMessage `json:"assessments"`
}

// pbTime writes epoch ms as a protobuf Timestamp.
func pbTime(ms int64) string {
	return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z")
}

// pbDuration writes ms as a protobuf Duration.
func pbDuration(ms int64) string {
	sign := ""
	if ms < 0 {
		sign, ms = "-", -ms
	}
	return sign + strconv.FormatInt(ms/1000, 10) + "." + strconv.FormatInt(1000+ms%1000, 10)[1:] + "s"
}

// parsePBTime reads a Timestamp (RFC 3339) or a number of ms.
func parsePBTime(name string, raw json.RawMessage) (int64, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return 0, nil
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		var n int64
		if json.Unmarshal(raw, &n) != nil {
			return 0, badType(name, "a timestamp", raw)
		}
		return n, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0, badType(name, "an RFC 3339 timestamp", raw)
	}
	return t.UnixMilli(), nil
}

// parsePBDuration reads a Duration ("1.5s") as ms.
func parsePBDuration(name string, raw json.RawMessage) (int64, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return 0, nil
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return 0, badType(name, "a duration", raw)
	}
	v, ok := strings.CutSuffix(s, "s")
	f, err := strconv.ParseFloat(v, 64)
	if !ok || err != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e12 {
		return 0, badType(name, "a duration in seconds such as \"1.5s\"", raw)
	}
	return int64(math.Round(f * 1000)), nil
}

func traceV3Wire(t *mlflow.Trace, as []*mlflow.Assessment) *traceInfoV3JSON {
	out := &traceInfoV3JSON{TraceID: t.ID, ClientRequestID: t.Doc.ClientRequestID, RequestPreview: t.Doc.RequestPreview,
		ResponsePreview: t.Doc.ResponsePreview, RequestTime: pbTime(t.RequestTime), ExecutionDuration: pbDuration(t.Duration),
		State: t.State, TraceMetadata: t.Doc.Metadata, Tags: t.Doc.Tags}
	out.TraceLocation.Type = "MLFLOW_EXPERIMENT"
	out.TraceLocation.MLflowExperiment = &struct {
		ExperimentID string `json:"experiment_id"`
	}{t.ExperimentID}
	for _, a := range as {
		out.Assessments = append(out.Assessments, assessmentWire(a))
	}
	return out
}

type traceInfoV2JSON struct {
	RequestID       string   `json:"request_id"`
	ExperimentID    string   `json:"experiment_id"`
	TimestampMs     int64    `json:"timestamp_ms"`
	ExecutionTimeMs int64    `json:"execution_time_ms"`
	Status          string   `json:"status"`
	RequestMetadata []kvJSON `json:"request_metadata,omitempty"`
	Tags            []kvJSON `json:"tags,omitempty"`
}

func traceV2Wire(t *mlflow.Trace) *traceInfoV2JSON {
	out := &traceInfoV2JSON{RequestID: t.ID, ExperimentID: t.ExperimentID, TimestampMs: t.RequestTime,
		ExecutionTimeMs: t.Duration, Status: t.State}
	if t.State == mlflow.TraceUnspecified {
		out.Status = "TRACE_STATUS_UNSPECIFIED"
	}
	for _, k := range sortedKeys(t.Doc.Metadata) {
		out.RequestMetadata = append(out.RequestMetadata, kvJSON{k, t.Doc.Metadata[k]})
	}
	for _, k := range sortedKeys(t.Doc.Tags) {
		out.Tags = append(out.Tags, kvJSON{k, t.Doc.Tags[k]})
	}
	return out
}

// assessmentJSON is MLflow's Assessment.
type assessmentJSON struct {
	AssessmentID   string                   `json:"assessment_id,omitempty"`
	AssessmentName string                   `json:"assessment_name"`
	TraceID        string                   `json:"trace_id,omitempty"`
	SpanID         string                   `json:"span_id,omitempty"`
	Source         *mlflow.AssessmentSource `json:"source,omitempty"`
	CreateTime     string                   `json:"create_time,omitempty"`
	LastUpdateTime string                   `json:"last_update_time,omitempty"`
	Feedback       json.RawMessage          `json:"feedback,omitempty"`
	Expectation    json.RawMessage          `json:"expectation,omitempty"`
	Rationale      string                   `json:"rationale,omitempty"`
	Error          json.RawMessage          `json:"error,omitempty"`
	Metadata       map[string]string        `json:"metadata,omitempty"`
	Overrides      string                   `json:"overrides,omitempty"`
	Valid          *bool                    `json:"valid,omitempty"`
}

func assessmentWire(a *mlflow.Assessment) *assessmentJSON {
	valid := a.Valid
	return &assessmentJSON{AssessmentID: a.ID, AssessmentName: a.Name, TraceID: a.TraceID, SpanID: a.SpanID, Source: a.Source,
		CreateTime: pbTime(a.Created), LastUpdateTime: pbTime(a.LastUpdate), Feedback: a.Feedback,
		Expectation: expectationWire(a.Expectation), Rationale: a.Rationale, Error: a.Error, Metadata: a.Metadata,
		Overrides: a.Overrides, Valid: &valid}
}

// expectationWire answers an expectation whose value is an object or a
// list as MLflow does: its JSON text as serialized_value.
func expectationWire(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	var e map[string]json.RawMessage
	if json.Unmarshal(raw, &e) != nil {
		return raw
	}
	v := strings.TrimSpace(string(e["value"]))
	if !strings.HasPrefix(v, "{") && !strings.HasPrefix(v, "[") {
		return raw
	}
	out, _ := json.Marshal(map[string]any{"serialized_value": map[string]string{"serialization_format": "JSON_FORMAT", "value": v}})
	return out
}

// assessmentIn reads the assessment parameter.
func assessmentIn(c *call) (*mlflow.Assessment, error) {
	raw, ok := c.params["assessment"]
	if !ok || string(raw) == "null" {
		return nil, missing("assessment")
	}
	var in assessmentJSON
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, badType("assessment", "an Assessment object", raw)
	}
	a := &mlflow.Assessment{ID: in.AssessmentID, Name: in.AssessmentName, TraceID: in.TraceID, SpanID: in.SpanID,
		Source: in.Source, Feedback: in.Feedback, Expectation: in.Expectation, Rationale: in.Rationale, Error: in.Error,
		Metadata: in.Metadata, Overrides: in.Overrides, Valid: in.Valid == nil || *in.Valid}
	for _, r := range []*json.RawMessage{&a.Feedback, &a.Expectation, &a.Error} {
		if string(*r) == "null" {
			*r = nil
		}
	}
	return a, nil
}

// nanNumber writes a float as protobuf's JSON does: NaN and the
// infinities as strings.
type nanNumber float64

func (f nanNumber) MarshalJSON() ([]byte, error) {
	v := float64(f)
	switch {
	case math.IsNaN(v):
		return []byte(`"NaN"`), nil
	case math.IsInf(v, 1):
		return []byte(`"Infinity"`), nil
	case math.IsInf(v, -1):
		return []byte(`"-Infinity"`), nil
	}
	return json.Marshal(v)
}

// A field mask is "a,b,c" in protobuf's JSON, {"paths": [...]} otherwise.
func splitMask(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func joinMask(paths []string) string { return strings.Join(paths, ",") }
