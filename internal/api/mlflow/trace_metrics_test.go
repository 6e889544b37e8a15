package mlflow_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// t0 is a minute boundary (epoch ms), so buckets of 60 s start at it.
const t0 = int64(1_699_999_980_000)

// metricTrace logs a whole v3 trace with the given start, duration, state,
// name and metadata.
func (c *client) metricTrace(t testing.TB, exp, id string, startMs, durMs int64, state, name string, meta, tags map[string]string) {
	t.Helper()
	md := map[string]string{"mlflow.trace_schema.version": "3"}
	for k, v := range meta {
		md[k] = v
	}
	tg := map[string]string{"mlflow.traceName": name}
	for k, v := range tags {
		tg[k] = v
	}
	info := map[string]any{"trace_id": id, "trace_location": map[string]any{"type": "MLFLOW_EXPERIMENT",
		"mlflow_experiment": map[string]any{"experiment_id": exp}}, "request_time": time.UnixMilli(startMs).UTC().Format(time.RFC3339Nano),
		"execution_duration": fmt.Sprintf("%.3fs", float64(durMs)/1000), "state": state, "tags": tg, "trace_metadata": md}
	c.v3().post(t, "traces", map[string]any{"trace": map[string]any{"trace_info": info}}).ok(t)
}

// metricSpan is a child span (so the trace keeps its own times) sent by
// OTLP's JSON encoding into trace id.
type metricSpan struct {
	trace, name, typ, status string
	n                        byte // makes the span id
	startMs, durMs           int64
	attrs                    map[string]string
}

func (c *client) metricSpans(t testing.TB, exp string, spans []metricSpan) {
	t.Helper()
	var list []map[string]any
	for _, sp := range spans {
		attrs := []map[string]any{
			{"key": "mlflow.traceRequestId", "value": map[string]any{"stringValue": `"` + sp.trace + `"`}},
			{"key": "mlflow.spanType", "value": map[string]any{"stringValue": `"` + sp.typ + `"`}},
		}
		for k, v := range sp.attrs {
			attrs = append(attrs, map[string]any{"key": k, "value": map[string]any{"stringValue": v}})
		}
		list = append(list, map[string]any{
			"traceId": base64.StdEncoding.EncodeToString([]byte(strings.Repeat("t", 16))), "spanId": base64.StdEncoding.EncodeToString([]byte{9, 9, 9, 9, 9, 9, 9, sp.n}),
			"parentSpanId": base64.StdEncoding.EncodeToString([]byte{1, 1, 1, 1, 1, 1, 1, 1}), "name": sp.name,
			"startTimeUnixNano": fmt.Sprint(sp.startMs * 1_000_000), "endTimeUnixNano": fmt.Sprint((sp.startMs + sp.durMs) * 1_000_000),
			"status": map[string]any{"code": "STATUS_CODE_" + sp.status}, "attributes": attrs})
	}
	body, _ := json.Marshal(map[string]any{"resourceSpans": []any{map[string]any{"scopeSpans": []any{map[string]any{"spans": list}}}}})
	if status, out := c.otlp(t, exp, "application/json", body); status != 200 {
		t.Fatalf("spans: %d %s", status, out)
	}
}

func (c *client) feedback(t testing.TB, trace, name string, value any, overrides string) string {
	t.Helper()
	a := map[string]any{"assessment_name": name, "feedback": map[string]any{"value": value},
		"source": map[string]any{"source_type": "HUMAN", "source_id": "me"}}
	if overrides != "" {
		a["overrides"] = overrides
	}
	return str(c.v3().post(t, "traces/"+trace+"/assessments", map[string]any{"assessment": a}).ok(t), "assessment", "assessment_id")
}

// seedMetrics makes four traces over two minutes, spans on two of them and
// assessments (one overridden) on three.
func seedMetrics(t *testing.T, c *client) (exp string, ids []string) {
	exp = c.experiment(t, "trace-metrics")
	for i := range 4 {
		ids = append(ids, fmt.Sprintf("tr-%032x", i+1))
	}
	tokens := func(in, out, total int) map[string]string {
		return map[string]string{"mlflow.trace.tokenUsage": fmt.Sprintf(`{"input_tokens": %d, "output_tokens": %d, "total_tokens": %d}`, in, out, total)}
	}
	m1, m2 := tokens(10, 20, 30), tokens(5, 5, 10)
	m1["mlflow.trace.session"], m2["mlflow.trace.session"] = "s1", "s1"
	m4 := tokens(40, 10, 50)
	c.metricTrace(t, exp, ids[0], t0+1000, 100, "OK", "chat", m1, nil)
	c.metricTrace(t, exp, ids[1], t0+2000, 300, "ERROR", "chat", m2, nil)
	c.metricTrace(t, exp, ids[2], t0+61000, 200, "OK", "search", map[string]string{"mlflow.trace.session": "s2"}, nil)
	c.metricTrace(t, exp, ids[3], t0+62000, 400, "OK", "search", m4, map[string]string{"env": "prod"})
	cost := func(total float64) map[string]string {
		return map[string]string{"mlflow.llm.model": `"gpt"`, "mlflow.llm.cost": fmt.Sprintf(`{"input_cost": 0.1, "output_cost": %g, "total_cost": %g}`, total-0.1, total)}
	}
	c.metricSpans(t, exp, []metricSpan{
		{ids[0], "llm", "LLM", "OK", 1, t0 + 1000, 50, cost(0.3)},
		{ids[0], "tool", "TOOL", "ERROR", 2, t0 + 1010, 20, nil},
		{ids[0], "tool", "TOOL", "OK", 3, t0 + 1020, 40, nil},
		{ids[2], "llm", "LLM", "OK", 4, t0 + 61000, 10, cost(0.5)},
	})
	c.feedback(t, ids[0], "quality", true, "")
	c.feedback(t, ids[1], "quality", false, "")
	old := c.feedback(t, ids[2], "quality", "yes", "")
	c.feedback(t, ids[2], "quality", 0.5, old)
	c.v3().post(t, "traces/"+ids[0]+"/assessments", map[string]any{"assessment": map[string]any{"assessment_name": "expected",
		"expectation": map[string]any{"value": "Paris"}, "source": map[string]any{"source_type": "HUMAN", "source_id": "me"}}}).ok(t)
	return exp, ids
}

// point is a data point as the test compares it: dimensions and values.
type point struct {
	dims   map[string]string
	values map[string]float64
}

func points(t testing.TB, a map[string]any) []point {
	t.Helper()
	var out []point
	l, ok := a["data_points"].([]any)
	if !ok {
		t.Fatalf("no data_points: %v", a)
	}
	for _, p := range l {
		pt := point{dims: map[string]string{}, values: map[string]float64{}}
		for k, v := range at(p, "dimensions").(map[string]any) {
			pt.dims[k] = v.(string)
		}
		for k, v := range at(p, "values").(map[string]any) {
			pt.values[k] = v.(float64)
		}
		out = append(out, pt)
	}
	return out
}

func (p point) String() string { return fmt.Sprintf("%v=%v", p.dims, p.values) }

func samePoints(got, want []point) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if fmt.Sprint(got[i].dims) != fmt.Sprint(want[i].dims) || len(got[i].values) != len(want[i].values) {
			return false
		}
		for k, v := range want[i].values {
			if g, ok := got[i].values[k]; !ok || math.Abs(g-v) > 1e-9 {
				return false
			}
		}
	}
	return true
}

func bucket(ms int64) string { return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05+00:00") }

func agg(types ...any) []map[string]any {
	var out []map[string]any
	for _, a := range types {
		if p, ok := a.(float64); ok {
			out = append(out, map[string]any{"aggregation_type": "PERCENTILE", "percentile_value": p})
			continue
		}
		out = append(out, map[string]any{"aggregation_type": a})
	}
	return out
}

// TestTraceMetrics: counts, sums, averages, percentiles, time buckets,
// dimensions and filters of the three views over seeded traces, through
// both API prefixes; another company sees nothing, a guest reads.
func TestTraceMetrics(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp, ids := seedMetrics(t, c)
		d := func(kv ...string) map[string]string {
			m := map[string]string{}
			for i := 0; i+1 < len(kv); i += 2 {
				m[kv[i]] = kv[i+1]
			}
			return m
		}
		v := func(kv ...any) map[string]float64 {
			m := map[string]float64{}
			for i := 0; i+1 < len(kv); i += 2 {
				m[kv[i].(string)] = kv[i+1].(float64)
			}
			return m
		}
		q := func(view, metric string, aggs []map[string]any, extra map[string]any) map[string]any {
			body := map[string]any{"experiment_ids": []string{exp}, "view_type": view, "metric_name": metric, "aggregations": aggs}
			for k, x := range extra {
				body[k] = x
			}
			return body
		}
		window := map[string]any{"time_interval_seconds": 60, "start_time_ms": t0, "end_time_ms": t0 + 120_000}
		for _, tc := range []struct {
			name string
			body map[string]any
			want []point
		}{
			{"trace count", q("TRACES", "trace_count", agg("COUNT"), nil), []point{{d(), v("COUNT", 4.0)}}},
			{"trace count by status", q("TRACES", "trace_count", agg("COUNT"), map[string]any{"dimensions": []string{"trace_status"}}),
				[]point{{d("trace_status", "ERROR"), v("COUNT", 1.0)}, {d("trace_status", "OK"), v("COUNT", 3.0)}}},
			{"trace count per minute", q("TRACES", "trace_count", agg("COUNT"), window),
				[]point{{d("time_bucket", bucket(t0)), v("COUNT", 2.0)}, {d("time_bucket", bucket(t0+60_000)), v("COUNT", 2.0)}}},
			{"enums as numbers", q("TRACES", "trace_count", []map[string]any{{"aggregation_type": 1}}, map[string]any{"view_type": 1}),
				[]point{{d(), v("COUNT", 4.0)}}},
			{"latency", q("TRACES", "latency", agg("AVG", "MIN", "MAX", 50.0, 90.0), nil),
				[]point{{d(), v("AVG", 250.0, "MIN", 100.0, "MAX", 400.0, "P50.0", 250.0, "P90.0", 370.0)}}},
			{"latency by name per minute", q("TRACES", "latency", agg("AVG"), map[string]any{"dimensions": []string{"trace_name"},
				"time_interval_seconds": 60, "start_time_ms": t0, "end_time_ms": t0 + 120_000}),
				[]point{{d("time_bucket", bucket(t0), "trace_name", "chat"), v("AVG", 200.0)}, {d("time_bucket", bucket(t0+60_000), "trace_name", "search"), v("AVG", 300.0)}}},
			{"tokens", q("TRACES", "total_tokens", agg("SUM", "AVG", 50.0), nil), []point{{d(), v("SUM", 90.0, "AVG", 30.0, "P50.0", 30.0)}}},
			{"input tokens by name", q("TRACES", "input_tokens", agg("SUM"), map[string]any{"dimensions": []string{"trace_name"}}),
				[]point{{d("trace_name", "chat"), v("SUM", 15.0)}, {d("trace_name", "search"), v("SUM", 40.0)}}},
			{"sessions", q("TRACES", "session_count", agg("COUNT"), nil), []point{{d(), v("COUNT", 2.0)}}},
			{"status filter", q("TRACES", "trace_count", agg("COUNT"), map[string]any{"filters": []string{`trace.status = "OK"`}}), []point{{d(), v("COUNT", 3.0)}}},
			{"tag filter", q("TRACES", "trace_count", agg("COUNT"), map[string]any{"filters": []string{`trace.tag.env = 'prod'`}}), []point{{d(), v("COUNT", 1.0)}}},
			{"metadata filter", q("TRACES", "trace_count", agg("COUNT"), map[string]any{"filters": []string{"trace.metadata.`mlflow.trace.session` = \"s1\"", `trace.status = "OK"`}}),
				[]point{{d(), v("COUNT", 1.0)}}},
			{"time range", q("TRACES", "trace_count", agg("COUNT"), map[string]any{"start_time_ms": t0 + 60_000}), []point{{d(), v("COUNT", 2.0)}}},
			{"no values: no point", q("TRACES", "latency", agg("AVG"), map[string]any{"start_time_ms": t0 + 500_000}), nil},
			{"span count by name and status", q("SPANS", "span_count", agg("COUNT"), map[string]any{"dimensions": []string{"span_name", "span_status"}}),
				[]point{{d("span_name", "llm", "span_status", "OK"), v("COUNT", 2.0)}, {d("span_name", "tool", "span_status", "ERROR"), v("COUNT", 1.0)},
					{d("span_name", "tool", "span_status", "OK"), v("COUNT", 1.0)}}},
			{"tool spans", q("SPANS", "span_count", agg("COUNT"), map[string]any{"filters": []string{`span.type = "TOOL"`}}), []point{{d(), v("COUNT", 2.0)}}},
			{"span latency by name", q("SPANS", "latency", agg("AVG", "MAX"), map[string]any{"dimensions": []string{"span_name"}}),
				[]point{{d("span_name", "llm"), v("AVG", 30.0, "MAX", 50.0)}, {d("span_name", "tool"), v("AVG", 30.0, "MAX", 40.0)}}},
			{"span cost by model", q("SPANS", "total_cost", agg("SUM"), map[string]any{"dimensions": []string{"span_model_name"}}),
				[]point{{d("span_model_name", "gpt"), v("SUM", 0.8)}}},
			{"spans of error traces", q("SPANS", "span_count", agg("COUNT"), map[string]any{"filters": []string{`trace.status = "ERROR"`}}), []point{{d(), v("COUNT", 0.0)}}},
			{"assessments by name", q("ASSESSMENTS", "assessment_count", agg("COUNT"), map[string]any{"dimensions": []string{"assessment_name"}}),
				[]point{{d("assessment_name", "expected"), v("COUNT", 1.0)}, {d("assessment_name", "quality"), v("COUNT", 3.0)}}},
			{"assessment values", q("ASSESSMENTS", "assessment_value", agg("AVG", "MIN"), map[string]any{"dimensions": []string{"assessment_name"}}),
				[]point{{d("assessment_name", "quality"), v("AVG", 0.5, "MIN", 0.0)}}},
			{"assessment counts by value", q("ASSESSMENTS", "assessment_count", agg("COUNT"), map[string]any{"dimensions": []string{"assessment_value"},
				"filters": []string{`assessment.name = "quality"`}}),
				[]point{{d("assessment_value", "0.5"), v("COUNT", 1.0)}, {d("assessment_value", "false"), v("COUNT", 1.0)}, {d("assessment_value", "true"), v("COUNT", 1.0)}}},
			{"expectations", q("ASSESSMENTS", "assessment_count", agg("COUNT"), map[string]any{"filters": []string{`assessment.type = "expectation"`}}), []point{{d(), v("COUNT", 1.0)}}},
			{"assessments per minute", q("ASSESSMENTS", "assessment_count", agg("COUNT"), window),
				[]point{{d("time_bucket", bucket(t0)), v("COUNT", 3.0)}, {d("time_bucket", bucket(t0+60_000)), v("COUNT", 1.0)}}},
		} {
			for _, cl := range []*client{c.v3(), {e: c.e, auth: c.auth, prefix: "/ajax-api/3.0/mlflow/"}, c.as(guestUser).v3()} {
				got := points(t, cl.post(t, "traces/metrics", tc.body).ok(t))
				if !samePoints(got, tc.want) {
					t.Errorf("%s (%s): got %v, want %v", tc.name, cl.prefix, got, tc.want)
				}
			}
		}
		// pages of one point
		body := q("TRACES", "trace_count", agg("COUNT"), map[string]any{"dimensions": []string{"trace_status"}, "max_results": 1})
		p1 := c.v3().post(t, "traces/metrics", body).ok(t)
		body["page_token"] = str(p1, "next_page_token")
		p2 := c.v3().post(t, "traces/metrics", body).ok(t)
		if g1, g2 := points(t, p1), points(t, p2); len(g1) != 1 || g1[0].dims["trace_status"] != "ERROR" || len(g2) != 1 ||
			g2[0].dims["trace_status"] != "OK" || str(p2, "next_page_token") != "" || str(p1, "next_page_token") == "" {
			t.Errorf("pages: %v %v", p1, p2)
		}
		// another company counts none of the company's traces
		other := points(t, c.as(otherUser).v3().post(t, "traces/metrics", q("TRACES", "trace_count", agg("COUNT"), nil)).ok(t))
		if !samePoints(other, []point{{d(), v("COUNT", 0.0)}}) {
			t.Errorf("another company: %v", other)
		}
		if len(ids) != 4 {
			t.Fatal(ids)
		}
	})
}

// TestTraceMetricsBadInput: every malformed call is MLflow's 400 naming
// the field.
func TestTraceMetricsBadInput(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "trace-metrics-bad")
		ok := func() map[string]any {
			return map[string]any{"experiment_ids": []string{exp}, "view_type": "TRACES", "metric_name": "trace_count", "aggregations": agg("COUNT")}
		}
		many := make([]string, 101)
		for i := range many {
			many[i] = fmt.Sprint(i)
		}
		for _, tc := range []struct {
			field string
			value any
			part  string
		}{
			{"experiment_ids", nil, "experiment_ids"},
			{"experiment_ids", many, "experiment_ids"},
			{"view_type", "FOO", "view_type"},
			{"view_type", 7, "view_type"},
			{"view_type", nil, "view_type"},
			{"metric_name", "bogus", "metric_name"},
			{"metric_name", nil, "metric_name"},
			{"aggregations", nil, "aggregations"},
			{"aggregations", agg("SUM"), "aggregation_type"},
			{"aggregations", agg("MEDIAN"), "aggregation_type"},
			{"aggregations", agg("COUNT", "COUNT", "COUNT", "COUNT", "COUNT", "COUNT", "COUNT", "COUNT", "COUNT", "COUNT", "COUNT"), "aggregations"},
			{"aggregations", "x", "aggregations"},
			{"dimensions", []string{"span_name"}, "dimensions"},
			{"time_interval_seconds", 60, "start_time_ms"},
			{"time_interval_seconds", -1, "time_interval_seconds"},
			{"time_interval_seconds", "often", "time_interval_seconds"},
			{"start_time_ms", "soon", "start_time_ms"},
			{"max_results", 0, "max_results"},
			{"max_results", 10001, "max_results"},
			{"page_token", "!!", "page token"},
			{"filters", []string{`trace.status > "OK"`}, "only '='"},
			{"filters", []string{`span.name = "x"`}, "span filters"},
			{"filters", []string{`trace.tag = "x"`}, "requires a key"},
			{"filters", []string{`trace.color = "x"`}, "Invalid entity"},
			{"filters", []string{`run.status = "x"`}, "Invalid view type"},
			{"filters", []string{`trace.status = OK`}, "quoted string"},
			{"filters", []string{`trace.status = "OK" AND trace.status = "OK"`}, "one clause"},
			{"filters", []string{`trace.status = "OK`}, "unterminated"},
		} {
			body := ok()
			if tc.value == nil {
				delete(body, tc.field)
			} else {
				body[tc.field] = tc.value
			}
			c.v3().post(t, "traces/metrics", body).fails(t, 400, "INVALID_PARAMETER_VALUE", tc.part)
		}
		for _, a := range []map[string]any{
			{"aggregation_type": "PERCENTILE"},
			{"aggregation_type": "PERCENTILE", "percentile_value": 101},
			{"aggregation_type": "AVG", "percentile_value": 50},
		} {
			body := ok()
			body["metric_name"], body["aggregations"] = "latency", []map[string]any{a}
			c.v3().post(t, "traces/metrics", body).fails(t, 400, "INVALID_PARAMETER_VALUE", "percentile_value")
		}
		// only POST (a GET reads a trace of that id, as in MLflow), only under
		// 3.0 (under 2.0 the path is v2's trace, which takes no POST)
		c.v3().get(t, "traces/metrics", nil).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "metrics")
		c.post(t, "traces/metrics", ok()).fails(t, 405, "BAD_REQUEST", "not allowed")
	})
}
