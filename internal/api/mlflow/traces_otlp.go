package mlflow

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"

	commonv1 "go.opentelemetry.io/proto/otlp/common/v1"
	tracev1 "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/mlflow"
)

// OTLP's trace export (POST /v1/traces, as MLflow 3.4's server takes
// it): an ExportTraceServiceRequest in protobuf or JSON, the experiment
// in MLflow's header. ExportTraceServiceRequest and TracesData have the
// same fields, so the trace/v1 package decodes it without the collector's
// gRPC code.

// OTLPPath is the OTLP trace export path.
const OTLPPath = "/v1/traces"

// ExperimentHeader names the experiment of exported spans.
const ExperimentHeader = "X-Mlflow-Experiment-Id"

// spanRequestIDAttr is the attribute in which MLflow's client names a
// span's trace.
const spanRequestIDAttr = "mlflow.traceRequestId"

func (s *Server) exportOTLP(w http.ResponseWriter, r *http.Request, who *auth.Identity) error {
	if r.Method != http.MethodPost {
		return methodRefused(r, "POST")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.maxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return apierr.MLflowInvalidParameter("The request body is larger than the limit of %d bytes", s.maxBody)
		}
		return apierr.MLflowBadRequest("Failed reading the request body")
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	spans, err := decodeOTLP(ct, body)
	if err != nil {
		return err
	}
	if err := mlflow.LogSpans(r.Context(), s.env, who.CompanyID, who.UserID, r.Header.Get(ExperimentHeader), spans); err != nil {
		return err
	}
	if ct == "application/json" {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte("{}"))
		return nil
	}
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.WriteHeader(http.StatusOK) // an empty ExportTraceServiceResponse
	return nil
}

// decodeOTLP reads an export's spans as MLflow stores them.
func decodeOTLP(contentType string, body []byte) ([]mlflow.LoggedSpan, error) {
	req := &tracev1.TracesData{}
	switch contentType {
	case "application/x-protobuf", "application/protobuf":
		if err := proto.Unmarshal(body, req); err != nil {
			return nil, apierr.MLflowInvalidParameter("Invalid OTLP protobuf body: %s", shortErr(err))
		}
	case "application/json":
		if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(body, req); err != nil {
			return nil, apierr.MLflowInvalidParameter("Invalid OTLP JSON body: %s", shortErr(err))
		}
	default:
		return nil, apierr.MLflowInvalidParameter("Unsupported Content-Type '%s': application/x-protobuf or application/json", contentType)
	}
	var out []mlflow.LoggedSpan
	for _, rs := range req.GetResourceSpans() {
		for _, ss := range rs.GetScopeSpans() {
			for _, sp := range ss.GetSpans() {
				if len(out) >= mlflow.MaxSpansPerCall {
					return nil, apierr.MLflowInvalidParameter("At most %d spans a call", mlflow.MaxSpansPerCall)
				}
				ls, err := loggedSpan(sp)
				if err != nil {
					return nil, err
				}
				out = append(out, ls)
			}
		}
	}
	return out, nil
}

// spanJSON is MLflow's span dictionary (what traces.json holds).
type spanJSON struct {
	TraceID      string            `json:"trace_id"`
	SpanID       string            `json:"span_id"`
	ParentSpanID string            `json:"parent_span_id"`
	Name         string            `json:"name"`
	Start        int64             `json:"start_time_unix_nano"`
	End          int64             `json:"end_time_unix_nano"`
	Attributes   map[string]string `json:"attributes"`
	Status       struct {
		Code    string `json:"code"`
		Message string `json:"message,omitempty"`
	} `json:"status"`
	Events []eventJSON `json:"events"`
}

type eventJSON struct {
	Name       string            `json:"name"`
	Time       int64             `json:"time_unix_nano"`
	Attributes map[string]string `json:"attributes,omitempty"`
}

// attrText is an attribute's value as MLflow keeps it: a string as it
// is (MLflow's client sends JSON text), anything else as JSON.
func attrText(v *commonv1.AnyValue) string {
	switch x := v.GetValue().(type) {
	case *commonv1.AnyValue_StringValue:
		return x.StringValue
	case *commonv1.AnyValue_BoolValue:
		return strconv.FormatBool(x.BoolValue)
	case *commonv1.AnyValue_IntValue:
		return strconv.FormatInt(x.IntValue, 10)
	case *commonv1.AnyValue_DoubleValue:
		b, _ := json.Marshal(x.DoubleValue)
		return string(b)
	case nil:
		return ""
	}
	b, _ := protojson.Marshal(v)
	return string(b)
}

func attrMap(kvs []*commonv1.KeyValue) map[string]string {
	out := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		out[kv.GetKey()] = attrText(kv.GetValue())
	}
	return out
}

func loggedSpan(sp *tracev1.Span) (mlflow.LoggedSpan, error) {
	if len(sp.GetTraceId()) != 16 || len(sp.GetSpanId()) != 8 {
		return mlflow.LoggedSpan{}, apierr.MLflowInvalidParameter("Invalid OTLP span: a trace id of 16 bytes and a span id of 8 are required")
	}
	if p := sp.GetParentSpanId(); len(p) != 0 && len(p) != 8 {
		return mlflow.LoggedSpan{}, apierr.MLflowInvalidParameter("Invalid OTLP span: a parent span id is 8 bytes")
	}
	attrs := attrMap(sp.GetAttributes())
	traceID := "tr-" + hex.EncodeToString(sp.GetTraceId())
	if v := attrs[spanRequestIDAttr]; v != "" {
		var id string
		if json.Unmarshal([]byte(v), &id) != nil {
			id = v
		}
		traceID = id
	}
	d := spanJSON{TraceID: base64.StdEncoding.EncodeToString(sp.GetTraceId()), SpanID: base64.StdEncoding.EncodeToString(sp.GetSpanId()),
		Name: sp.GetName(), Start: int64(sp.GetStartTimeUnixNano()), End: int64(sp.GetEndTimeUnixNano()), Attributes: attrs, Events: []eventJSON{}}
	if p := sp.GetParentSpanId(); len(p) > 0 {
		d.ParentSpanID = base64.StdEncoding.EncodeToString(p)
	}
	d.Status.Code, d.Status.Message = sp.GetStatus().GetCode().String(), sp.GetStatus().GetMessage()
	for _, e := range sp.GetEvents() {
		d.Events = append(d.Events, eventJSON{Name: e.GetName(), Time: int64(e.GetTimeUnixNano()), Attributes: attrMap(e.GetAttributes())})
	}
	doc, err := json.Marshal(d)
	if err != nil {
		return mlflow.LoggedSpan{}, err
	}
	state := mlflow.TraceUnspecified
	switch sp.GetStatus().GetCode() {
	case tracev1.Status_STATUS_CODE_OK:
		state = mlflow.TraceOK
	case tracev1.Status_STATUS_CODE_ERROR:
		state = mlflow.TraceError
	}
	if d.End == 0 {
		state = mlflow.TraceInProgress
	}
	return mlflow.LoggedSpan{TraceID: traceID, SpanID: hex.EncodeToString(sp.GetSpanId()), ParentID: d.ParentSpanID, Name: d.Name,
		StartNs: d.Start, EndNs: d.End, State: state, Doc: string(doc)}, nil
}
