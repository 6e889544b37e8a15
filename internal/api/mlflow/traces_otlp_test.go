package mlflow_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	commonv1 "go.opentelemetry.io/proto/otlp/common/v1"
	tracev1 "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

func (c *client) otlp(t testing.TB, exp, contentType string, body []byte) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest("POST", c.e.URL+"/v1/traces", bytes.NewReader(body))
	req.Header.Set("Authorization", c.auth)
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("X-Mlflow-Experiment-Id", exp)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// TestOTLPTraces: spans exported by OTLP (protobuf and JSON) make their
// trace and are read back by get-trace-artifact; hostile bodies get 400.
func TestOTLPTraces(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "traces-otlp")
		tid := bytes.Repeat([]byte{0xab}, 16)
		root := &tracev1.Span{TraceId: tid, SpanId: []byte{1, 2, 3, 4, 5, 6, 7, 8}, Name: "root", StartTimeUnixNano: 2_000_000_000,
			EndTimeUnixNano: 2_500_000_000, Status: &tracev1.Status{Code: tracev1.Status_STATUS_CODE_OK},
			Attributes: []*commonv1.KeyValue{{Key: "mlflow.spanInputs", Value: &commonv1.AnyValue{Value: &commonv1.AnyValue_StringValue{StringValue: `{"q": "<b>hi</b>"}`}}}}}
		body, _ := proto.Marshal(&tracev1.TracesData{ResourceSpans: []*tracev1.ResourceSpans{{ScopeSpans: []*tracev1.ScopeSpans{{Spans: []*tracev1.Span{root}}}}}})
		if status, out := c.otlp(t, exp, "application/x-protobuf", body); status != 200 {
			t.Fatalf("protobuf export: %d %s", status, out)
		}
		child := `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"q6urq6urq6urq6urq6urqw==","spanId":"AgICAgICAgI=","parentSpanId":"AQIDBAUGBwg=","name":"child","startTimeUnixNano":"2100000000","endTimeUnixNano":"2200000000"}]}]}]}`
		if status, out := c.otlp(t, exp, "application/json", []byte(child)); status != 200 {
			t.Fatalf("JSON export: %d %s", status, out)
		}
		id := "tr-" + strings.Repeat("ab", 16)
		g := c.v3().get(t, "traces/"+id, nil).ok(t)
		ti := at(g, "trace", "trace_info")
		if str(ti, "state") != "OK" || str(ti, "execution_duration") != "0.500s" || str(ti, "tags", "mlflow.traceName") != "root" {
			t.Fatalf("trace: %v", g)
		}
		status, h, out := c.raw(t, "GET", "/api/2.0/mlflow/get-trace-artifact?request_id="+id, nil)
		var data struct {
			Spans []map[string]any `json:"spans"`
		}
		if status != 200 || json.Unmarshal(out, &data) != nil || len(data.Spans) != 2 || h.Get("Content-Disposition") != "attachment; filename=traces.json" {
			t.Fatalf("artifact: %d %s", status, out)
		}
		if str(data.Spans[0], "attributes", "mlflow.spanInputs") != `{"q": "<b>hi</b>"}` || str(data.Spans[1], "parent_span_id") != "AQIDBAUGBwg=" {
			t.Fatalf("spans: %s", out)
		}
		// a client that also uploads traces.json (MLflow 3.4 does both) is
		// answered its file, as MLflow's server answers it
		loc := str(ti, "tags", "mlflow.artifactLocation")
		if loc == "" {
			t.Fatalf("no artifact location: %v", ti)
		}
		uploaded := `{"spans": [{"name": "root", "attributes": {"fruit": "\"apple\""}}]}`
		if status, _, out := c.raw(t, "PUT", proxy+strings.TrimPrefix(loc, "mlflow-artifacts:/")+"/traces.json", []byte(uploaded)); status != 200 {
			t.Fatalf("upload: %d %s", status, out)
		}
		if status, _, out := c.raw(t, "GET", "/api/2.0/mlflow/get-trace-artifact?request_id="+id, nil); status != 200 || string(out) != uploaded {
			t.Fatalf("artifact after the upload: %d %s", status, out)
		}
		for _, tc := range []struct{ ct, body, exp string }{
			{"application/x-protobuf", "\xff\xff\xff", exp},
			{"application/json", `{"resourceSpans": 3}`, exp},
			{"application/json", `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"AQ==","spanId":"AQ=="}]}]}]}`, exp},
			{"text/plain", "x", exp},
			{"application/json", child, ""},
		} {
			if status, out := c.otlp(t, tc.exp, tc.ct, []byte(tc.body)); status != 400 || !strings.Contains(string(out), "INVALID_PARAMETER_VALUE") {
				t.Errorf("%s %q: %d %s", tc.ct, tc.body, status, out)
			}
		}
		if status, _ := c.otlp(t, "no-such", "application/x-protobuf", body); status != 404 {
			t.Errorf("unknown experiment: %d", status)
		}
		if status, _ := c.as(guestUser).otlp(t, exp, "application/x-protobuf", body); status != 403 {
			t.Errorf("guest export: %d", status)
		}
	})
}
