package mlflow_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// startTrace logs a whole v3 trace and returns its id.
func (c *client) startTrace(t testing.TB, exp, id string, startMs int64, state string, tags map[string]string) string {
	t.Helper()
	info := map[string]any{"trace_id": id, "trace_location": map[string]any{"type": "MLFLOW_EXPERIMENT",
		"mlflow_experiment": map[string]any{"experiment_id": exp}}, "request_time": fmt.Sprintf("1970-01-01T00:00:%02d.%03dZ", startMs/1000, startMs%1000),
		"execution_duration": "1.5s", "state": state, "tags": tags, "trace_metadata": map[string]string{"mlflow.trace_schema.version": "3"}}
	a := c.v3().post(t, "traces", map[string]any{"trace": map[string]any{"trace_info": info}}).ok(t)
	return str(a, "trace", "trace_info", "trace_id")
}

func traceIDs(a map[string]any) []string {
	var out []string
	l, _ := a["traces"].([]any)
	for _, tr := range l {
		out = append(out, str(tr, "trace_id")+str(tr, "request_id"))
	}
	return out
}

// TestTracesV2: the legacy start and end of a trace: the server makes
// the id, the end time gives the duration, metadata and tags merge.
func TestTracesV2(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "traces-v2")
		s := c.post(t, "traces", map[string]any{"experiment_id": exp, "timestamp_ms": 1000,
			"request_metadata": []map[string]string{{"key": "m1", "value": "a"}},
			"tags":             []map[string]string{{"key": "t1", "value": "x"}}}).ok(t)
		id := str(s, "trace_info", "request_id")
		if !strings.HasPrefix(id, "tr-") || str(s, "trace_info", "status") != "IN_PROGRESS" ||
			kv(at(s, "trace_info", "request_metadata"))["mlflow.trace_schema.version"] != "2" ||
			kv(at(s, "trace_info", "tags"))["mlflow.artifactLocation"] != "mlflow-artifacts:/"+exp+"/traces/"+id+"/artifacts" {
			t.Fatalf("start: %v", s)
		}
		e := c.do(t, "PATCH", "traces/"+id, map[string]any{"timestamp_ms": 3500, "status": "OK",
			"request_metadata": []map[string]string{{"key": "m2", "value": "b"}},
			"tags":             []map[string]string{{"key": "t1", "value": "y"}}}, nil).ok(t)
		if at(e, "trace_info", "execution_time_ms") != 2500.0 || str(e, "trace_info", "status") != "OK" ||
			kv(at(e, "trace_info", "request_metadata"))["m1"] != "a" || kv(at(e, "trace_info", "request_metadata"))["m2"] != "b" ||
			kv(at(e, "trace_info", "tags"))["t1"] != "y" {
			t.Fatalf("end: %v", e)
		}
		g := c.get(t, "traces/"+id+"/info", nil).ok(t)
		if at(g, "trace_info", "timestamp_ms") != 1000.0 || at(g, "trace_info", "execution_time_ms") != 2500.0 {
			t.Fatalf("info: %v", g)
		}
		c.do(t, "PATCH", "traces/"+id, map[string]any{"timestamp_ms": 10, "status": "OK"}, nil).fails(t, 400, "INVALID_PARAMETER_VALUE", "before")
		c.do(t, "PATCH", "traces/"+id, map[string]any{"status": "DONE"}, nil).fails(t, 400, "INVALID_PARAMETER_VALUE", "state")
		c.post(t, "traces", map[string]any{"experiment_id": "no-such"}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "no-such")
		// the legacy search answers v2's shape
		l := c.get(t, "traces", url.Values{"experiment_ids": {exp}}).ok(t)
		if ids := traceIDs(l); len(ids) != 1 || ids[0] != id {
			t.Fatalf("v2 search: %v", l)
		}
	})
}

// TestTracesV3: a whole trace logged at its end, read back exactly;
// tags set and deleted; another company and a guest are refused.
func TestTracesV3(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "traces-v3")
		id := c.startTrace(t, exp, "tr-0001", 1000, "OK", map[string]string{"a": "1", "b": "2"})
		g := c.v3().get(t, "traces/"+id, nil).ok(t)
		ti := at(g, "trace", "trace_info")
		if str(ti, "request_time") != "1970-01-01T00:00:01.000Z" || str(ti, "execution_duration") != "1.500s" ||
			str(ti, "state") != "OK" || str(ti, "trace_location", "mlflow_experiment", "experiment_id") != exp ||
			str(ti, "tags", "a") != "1" || str(ti, "trace_metadata", "mlflow.trace_schema.version") != "3" {
			t.Fatalf("get: %v", g)
		}
		// v2 and v3 tag rows
		c.do(t, "PATCH", "traces/"+id+"/tags", map[string]any{"key": "a", "value": "9"}, nil).ok(t)
		c.v3().do(t, "DELETE", "traces/"+id+"/tags", map[string]any{"key": "b"}, nil).ok(t)
		c.v3().do(t, "PATCH", "traces/"+id+"/tags", map[string]any{"key": "c", "value": "3"}, nil).ok(t)
		c.do(t, "DELETE", "traces/"+id+"/tags", map[string]any{"key": "b"}, nil).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "b")
		g = c.v3().get(t, "traces/"+id, nil).ok(t)
		if tags := at(g, "trace", "trace_info", "tags").(map[string]any); tags["a"] != "9" || tags["b"] != nil || tags["c"] != "3" {
			t.Fatalf("tags: %v", tags)
		}
		// bad input: 400 naming the field
		bad := map[string]any{"trace_id": "tr-bad", "trace_location": map[string]any{"mlflow_experiment": map[string]any{"experiment_id": exp}},
			"request_time": "yesterday"}
		c.v3().post(t, "traces", map[string]any{"trace": map[string]any{"trace_info": bad}}).fails(t, 400, "INVALID_PARAMETER_VALUE", "request_time")
		bad["request_time"], bad["execution_duration"] = "1970-01-01T00:00:01Z", "forever"
		c.v3().post(t, "traces", map[string]any{"trace": map[string]any{"trace_info": bad}}).fails(t, 400, "INVALID_PARAMETER_VALUE", "execution_duration")
		bad["execution_duration"], bad["trace_id"] = "1s", "tr/../x"
		c.v3().post(t, "traces", map[string]any{"trace": map[string]any{"trace_info": bad}}).fails(t, 400, "INVALID_PARAMETER_VALUE", "trace id")
		bad["trace_id"], bad["tags"] = "tr-big", map[string]string{"k": strings.Repeat("v", 9000)}
		c.v3().post(t, "traces", map[string]any{"trace": map[string]any{"trace_info": bad}}).fails(t, 400, "INVALID_PARAMETER_VALUE", "length")
		c.v3().post(t, "traces", map[string]any{"trace": "x"}).fails(t, 400, "INVALID_PARAMETER_VALUE", "trace")
		// isolation and roles
		c.as(otherUser).v3().get(t, "traces/"+id, nil).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", id)
		c.as(otherUser).post(t, "traces/delete-traces", map[string]any{"experiment_id": exp, "request_ids": []string{id}}).ok(t)
		c.as(guestUser).do(t, "PATCH", "traces/"+id+"/tags", map[string]any{"key": "a", "value": "1"}, nil).fails(t, 403, "PERMISSION_DENIED", "")
		if c.as(guestUser).v3().get(t, "traces/"+id, nil).Status != 200 {
			t.Fatal("a guest reads traces")
		}
	})
}

// TestTraceSearch: the filter language, order_by and pages, and the
// correlation of two filters.
func TestTraceSearch(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "traces-search")
		other := c.experiment(t, "traces-search-other")
		for i := 1; i <= 5; i++ {
			state := "OK"
			if i == 3 {
				state = "ERROR"
			}
			c.startTrace(t, exp, fmt.Sprintf("tr-%d", i), int64(i*1000), state, map[string]string{"env": map[bool]string{true: "prod", false: "dev"}[i <= 3],
				"mlflow.traceName": fmt.Sprintf("step %d", i)})
		}
		c.startTrace(t, other, "tr-other", 9000, "OK", nil)
		search := func(filter string, order []string, max int, tok string) map[string]any {
			body := map[string]any{"locations": []map[string]any{{"type": "MLFLOW_EXPERIMENT", "mlflow_experiment": map[string]any{"experiment_id": exp}}},
				"filter": filter, "order_by": order, "page_token": tok}
			if max > 0 {
				body["max_results"] = max
			}
			return c.v3().post(t, "traces/search", body).ok(t)
		}
		for _, tc := range []struct {
			filter string
			order  []string
			want   string
		}{
			{"", nil, "tr-5,tr-4,tr-3,tr-2,tr-1"},
			{"status = 'OK'", []string{"timestamp ASC"}, "tr-1,tr-2,tr-4,tr-5"},
			{"trace.state != 'OK'", nil, "tr-3"},
			{"tags.env = 'prod' AND timestamp_ms > 1500", nil, "tr-3,tr-2"},
			{"attributes.timestamp_ms <= 2000", []string{"request_id DESC"}, "tr-2,tr-1"},
			{"name LIKE 'step %'", []string{"name"}, "tr-1,tr-2,tr-3,tr-4,tr-5"},
			{"tag.env IN ('dev')", nil, "tr-5,tr-4"},
			{"metadata.`mlflow.trace_schema.version` = '3' AND execution_time_ms = 1500", []string{"tags.env", "timestamp DESC"}, "tr-5,tr-4,tr-3,tr-2,tr-1"},
			{"request_id = 'tr-other'", nil, ""},
		} {
			got := strings.Join(traceIDs(search(tc.filter, tc.order, 0, "")), ",")
			if got != tc.want {
				t.Errorf("%q %v: got %s, want %s", tc.filter, tc.order, got, tc.want)
			}
		}
		p1 := search("", nil, 2, "")
		p2 := search("", nil, 2, str(p1, "next_page_token"))
		p3 := search("", nil, 2, str(p2, "next_page_token"))
		if strings.Join(append(append(traceIDs(p1), traceIDs(p2)...), traceIDs(p3)...), ",") != "tr-5,tr-4,tr-3,tr-2,tr-1" || p3["next_page_token"] != nil {
			t.Fatalf("pages: %v %v %v", p1, p2, p3)
		}
		for _, bad := range []string{"invalid.key = 'x'", "colour = 'red'", "timestamp_ms > 'x'", "status > 'OK'", "tags.env = prod", "status = 'OK' OR status = 'ERROR'"} {
			c.v3().post(t, "traces/search", map[string]any{"locations": []map[string]any{{"mlflow_experiment": map[string]any{"experiment_id": exp}}},
				"filter": bad}).fails(t, 400, "INVALID_PARAMETER_VALUE", "Invalid")
		}
		c.v3().post(t, "traces/search", map[string]any{"experiment_ids": []string{exp}, "max_results": 5000}).fails(t, 400, "INVALID_PARAMETER_VALUE", "max_results")
		c.v3().post(t, "traces/search", map[string]any{}).fails(t, 400, "INVALID_PARAMETER_VALUE", "experiment")
		// correlation: prod = {1,2,3}, OK = {1,2,4,5}
		r := c.v3().post(t, "traces/calculate-filter-correlation", map[string]any{"experiment_ids": []string{exp},
			"filter_string1": "tags.env = 'prod'", "filter_string2": "status = 'OK'"}).ok(t)
		if r["total_count"] != 5.0 || r["filter1_count"] != 3.0 || r["filter2_count"] != 4.0 || r["joint_count"] != 2.0 {
			t.Fatalf("correlation: %v", r)
		}
		if n, _ := r["npmi"].(float64); n >= 0 || n < -1 {
			t.Fatalf("npmi of filters that go apart: %v", r)
		}
		r = c.v3().post(t, "traces/calculate-filter-correlation", map[string]any{"experiment_ids": []string{exp},
			"filter_string1": "tags.env = 'none'", "filter_string2": "status = 'OK'"}).ok(t)
		if r["npmi"] != "NaN" || r["joint_count"] != 0.0 {
			t.Fatalf("correlation without a joint trace: %v", r)
		}
	})
}

// TestTraceDeleteAndLinks: delete by ids and by time (oldest first, at
// most max_traces); link to a run and search by run_id.
func TestTraceDeleteAndLinks(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "traces-delete")
		run := c.run(t, exp, nil)
		for i := 1; i <= 4; i++ {
			c.startTrace(t, exp, fmt.Sprintf("tr-d%d", i), int64(i*1000), "OK", nil)
		}
		c.post(t, "traces/link-to-run", map[string]any{"run_id": run, "trace_ids": []string{"tr-d1", "tr-d2"}}).ok(t)
		c.post(t, "traces/link-to-run", map[string]any{"run_id": run, "trace_ids": []string{"tr-none"}}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "tr-none")
		c.post(t, "traces/link-to-run", map[string]any{"run_id": "no-run", "trace_ids": []string{"tr-d1"}}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "no-run")
		linked := c.v3().post(t, "traces/search", map[string]any{"experiment_ids": []string{exp}, "filter": "attribute.run_id = '" + run + "'"}).ok(t)
		if strings.Join(traceIDs(linked), ",") != "tr-d2,tr-d1" {
			t.Fatalf("linked: %v", linked)
		}
		d := c.post(t, "traces/delete-traces", map[string]any{"experiment_id": exp, "max_timestamp_millis": 2500, "max_traces": 1}).ok(t)
		if d["traces_deleted"] != 1.0 {
			t.Fatalf("delete by time: %v", d)
		}
		c.v3().get(t, "traces/tr-d1", nil).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "tr-d1")
		d = c.v3().post(t, "traces/delete-traces", map[string]any{"experiment_id": exp, "request_ids": []string{"tr-d3", "tr-d3", "tr-none"}}).ok(t)
		if d["traces_deleted"] != 1.0 {
			t.Fatalf("delete by ids: %v", d)
		}
		c.post(t, "traces/delete-traces", map[string]any{"experiment_id": exp}).fails(t, 400, "INVALID_PARAMETER_VALUE", "max_timestamp_millis")
		c.post(t, "traces/delete-traces", map[string]any{"experiment_id": exp, "max_timestamp_millis": 1, "request_ids": []string{"x"}}).fails(t, 400, "INVALID_PARAMETER_VALUE", "Only one")
		c.post(t, "traces/delete-traces", map[string]any{"experiment_id": exp, "max_timestamp_millis": 1, "max_traces": 0}).fails(t, 400, "INVALID_PARAMETER_VALUE", "max_traces")
		left := c.v3().post(t, "traces/search", map[string]any{"experiment_ids": []string{exp}}).ok(t)
		if strings.Join(traceIDs(left), ",") != "tr-d4,tr-d2" {
			t.Fatalf("left: %v", left)
		}
	})
}

// TestTraceArtifact: the spans the client uploads as traces.json under
// the trace's artifact location come back from get-trace-artifact as
// an attachment named traces.json.
func TestTraceArtifact(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "traces-artifact")
		id := c.startTrace(t, exp, "tr-art", 1000, "OK", nil)
		loc := str(c.v3().get(t, "traces/"+id, nil).ok(t), "trace", "trace_info", "tags", "mlflow.artifactLocation")
		body := `{"spans": [{"name": "<script>alert(1)</script>", "span_id": "AAAAAAAAAAE="}]}`
		if status, _, out := c.raw(t, "PUT", proxy+strings.TrimPrefix(loc, "mlflow-artifacts:/")+"/traces.json", []byte(body)); status != 200 {
			t.Fatalf("upload: %d %s", status, out)
		}
		status, h, out := c.raw(t, "GET", "/ajax-api/2.0/mlflow/get-trace-artifact?request_id="+id, nil)
		if status != 200 || string(out) != body || h.Get("Content-Disposition") != "attachment; filename=traces.json" || h.Get("X-Content-Type-Options") != "nosniff" {
			t.Fatalf("artifact: %d %v %s", status, h, out)
		}
		if status, _, _ := c.as(otherUser).raw(t, "GET", "/api/2.0/mlflow/get-trace-artifact?request_id="+id, nil); status != 404 {
			t.Fatalf("another company: %d", status)
		}
		if status, _, _ := c.raw(t, "GET", "/api/2.0/mlflow/get-trace-artifact", nil); status != 400 {
			t.Fatalf("no id: %d", status)
		}
	})
}

// TestAssessments: create, read, update by mask, override (the
// overridden one is invalid until the override is deleted), expectation
// values as MLflow serializes them.
func TestAssessments(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "traces-assess")
		id := c.startTrace(t, exp, "tr-as", 1000, "OK", nil)
		v := c.v3()
		base := "traces/" + id + "/assessments"
		a := v.post(t, base, map[string]any{"assessment": map[string]any{"assessment_name": "q",
			"feedback": map[string]any{"value": 4}, "source": map[string]any{"source_type": "HUMAN", "source_id": "me"},
			"metadata": map[string]string{"k": "v"}}}).ok(t)
		aid := str(a, "assessment", "assessment_id")
		if !strings.HasPrefix(aid, "a-") || at(a, "assessment", "valid") != true || at(a, "assessment", "feedback", "value") != 4.0 {
			t.Fatalf("create: %v", a)
		}
		u := v.do(t, "PATCH", base+"/"+aid, map[string]any{"assessment": map[string]any{"assessment_name": "q2",
			"feedback": map[string]any{"value": 5}, "rationale": "why"}, "update_mask": "assessmentName,feedback,rationale"}, nil).ok(t)
		if str(u, "assessment", "assessment_name") != "q2" || at(u, "assessment", "feedback", "value") != 5.0 || str(u, "assessment", "rationale") != "why" ||
			str(u, "assessment", "metadata", "k") != "v" {
			t.Fatalf("update: %v", u)
		}
		v.do(t, "PATCH", base+"/"+aid, map[string]any{"assessment": map[string]any{}, "update_mask": "source"}, nil).fails(t, 400, "INVALID_PARAMETER_VALUE", "update_mask")
		o := v.post(t, base, map[string]any{"assessment": map[string]any{"assessment_name": "q3", "overrides": aid,
			"feedback": map[string]any{"value": 3}, "source": map[string]any{"source_type": "HUMAN", "source_id": "boss"}}}).ok(t)
		oid := str(o, "assessment", "assessment_id")
		if at(v.get(t, base+"/"+aid, nil).ok(t), "assessment", "valid") != false {
			t.Fatal("the overridden assessment is still valid")
		}
		// the trace answers its assessments
		g := v.get(t, "traces/"+id, nil).ok(t)
		if l, _ := at(g, "trace", "trace_info", "assessments").([]any); len(l) != 2 {
			t.Fatalf("trace assessments: %v", g)
		}
		v.do(t, "DELETE", base+"/"+oid, nil, nil).ok(t)
		v.get(t, base+"/"+oid, nil).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", oid)
		if at(v.get(t, base+"/"+aid, nil).ok(t), "assessment", "valid") != true {
			t.Fatal("the overridden assessment is not valid again")
		}
		e := v.post(t, base, map[string]any{"assessment": map[string]any{"assessment_name": "exp",
			"expectation": map[string]any{"value": map[string]any{"ok": true}}, "source": map[string]any{"source_type": "CODE", "source_id": "ci"}}}).ok(t)
		if str(e, "assessment", "expectation", "serialized_value", "value") != `{"ok":true}` ||
			str(e, "assessment", "expectation", "serialized_value", "serialization_format") != "JSON_FORMAT" {
			t.Fatalf("expectation: %v", e)
		}
		for _, bad := range []map[string]any{
			{"assessment_name": "x", "source": map[string]any{"source_type": "HUMAN"}},
			{"assessment_name": "x", "feedback": map[string]any{}, "expectation": map[string]any{}, "source": map[string]any{"source_type": "HUMAN"}},
			{"assessment_name": "x", "feedback": 3, "source": map[string]any{"source_type": "HUMAN"}},
			{"assessment_name": "x", "feedback": map[string]any{}, "source": map[string]any{"source_type": "ALIEN"}},
			{"feedback": map[string]any{}, "source": map[string]any{"source_type": "HUMAN"}},
		} {
			v.post(t, base, map[string]any{"assessment": bad}).fails(t, 400, "INVALID_PARAMETER_VALUE", "ssessment")
		}
		v.post(t, "traces/tr-none/assessments", map[string]any{"assessment": map[string]any{"assessment_name": "x",
			"feedback": map[string]any{}, "source": map[string]any{"source_type": "HUMAN"}}}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "tr-none")
		c.as(otherUser).v3().get(t, base+"/"+aid, nil).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", aid)
		c.as(guestUser).v3().do(t, "DELETE", base+"/"+aid, nil, nil).fails(t, 403, "PERMISSION_DENIED", "")
	})
}
