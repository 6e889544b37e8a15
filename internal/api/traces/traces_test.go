package traces_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/testenv"
)

type obj = map[string]any

var guest = auth.FixedUser{ID: "tr-guest", Name: "guest", AccessKey: "TRGUESTKEY0000000000", SecretKey: "tr-guest-secret-000000000000000000", Role: auth.RoleGuest}
var other = auth.FixedUser{ID: "tr-other", Name: "other", AccessKey: "TROTHERKEY0000000000", SecretKey: "tr-other-secret-000000000000000000", Role: auth.RoleUser, Company: "tr-other-company"}

func bearer(tok string) func(http.Header) {
	return func(h http.Header) { h.Set("Authorization", "Bearer "+tok) }
}

// TestTraceReads: traces logged through MLflow's API read through
// traces.get_all (a project's, newest first, paged) and traces.get_by_id
// (with the spans the client uploaded, as stored); a guest reads, another
// company does not see them.
func TestTraceReads(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		exp := e.Do(t, "api/2.0/mlflow/experiments/create", obj{"name": "traced project"}, bearer(e.Token))
		if exp.Status != 200 {
			t.Fatalf("create: %d %s", exp.Status, exp.Raw)
		}
		var created struct {
			ID string `json:"experiment_id"`
		}
		_ = json.Unmarshal(exp.Raw, &created)
		project := created.ID
		if project == "" {
			t.Fatalf("no experiment id: %s", exp.Raw)
		}
		for i, id := range []string{"tr-a", "tr-b"} {
			info := obj{"trace_id": id, "trace_location": obj{"mlflow_experiment": obj{"experiment_id": project}},
				"request_time": []string{"1970-01-01T00:00:01Z", "1970-01-01T00:00:02Z"}[i], "execution_duration": "0.250s",
				"state": "OK", "tags": obj{"mlflow.traceName": "step-" + id}}
			if r := e.Do(t, "api/3.0/mlflow/traces", obj{"trace": obj{"trace_info": info}}, bearer(e.Token)); r.Status != 200 {
				t.Fatalf("start: %d %s", r.Status, r.Raw)
			}
		}
		spans := `{"spans": [{"name": "step-tr-a", "span_id": "AQ==", "attributes": {"mlflow.spanInputs": "\"<img src=x onerror=alert(1)>\""}}]}`
		req, _ := http.NewRequest("PUT", e.URL+"/api/2.0/mlflow-artifacts/artifacts/"+project+"/traces/tr-a/artifacts/traces.json", bytes.NewReader([]byte(spans)))
		req.Header.Set("Authorization", "Bearer "+e.Token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("upload: %v %v", err, resp)
		}
		resp.Body.Close()

		all := e.Call(t, "traces.get_all", obj{"project": project}).OK(t)
		if l := all.List("traces"); len(l) != 2 || all.Str("traces.0.id") != "tr-b" || all.Str("traces.1.name") != "step-tr-a" ||
			all.Num("traces.1.duration_ms") != 250 || all.Num("traces.1.request_time") != 1000 || all.Str("traces.1.state") != "OK" {
			t.Fatalf("get_all: %s", all.Raw)
		}
		if l := e.Call(t, "traces.get_all", obj{"project": project, "page": 1, "page_size": 1}).OK(t).List("traces"); len(l) != 1 {
			t.Fatalf("page 2: %v", l)
		}
		one := e.Call(t, "traces.get_by_id", obj{"trace": "tr-a"}).OK(t)
		if one.Str("trace.name") != "step-tr-a" || len(one.List("spans")) != 1 || one.Str("spans.0.name") != "step-tr-a" {
			t.Fatalf("get_by_id: %s", one.Raw)
		}
		if !bytes.Contains(one.Raw, []byte(`onerror=alert(1)`)) {
			t.Fatalf("the span's text is answered as stored: %s", one.Raw)
		}
		if l := e.Call(t, "traces.get_by_id", obj{"trace": "tr-b"}).OK(t).List("spans"); len(l) != 0 {
			t.Fatalf("no spans uploaded: %v", l)
		}
		e.Call(t, "traces.get_all", obj{}).Err(t, 400, 11)
		e.Call(t, "traces.get_all", obj{"project": project, "page_size": 5000}).Err(t, 400, 0)
		gt := e.Login(t, guest.AccessKey, guest.SecretKey)
		if l := e.CallAs(t, gt, "traces.get_all", obj{"project": project}).OK(t).List("traces"); len(l) != 2 {
			t.Fatalf("guest: %v", l)
		}
		ot := e.Login(t, other.AccessKey, other.SecretKey)
		if r := e.CallAs(t, ot, "traces.get_by_id", obj{"trace": "tr-a"}); r.Status != 404 {
			t.Fatalf("other company get_by_id: %d %s", r.Status, r.Raw)
		}
		if r := e.CallAs(t, ot, "traces.get_all", obj{"project": project}); r.Status != 400 {
			t.Fatalf("other company get_all: %d %s", r.Status, r.Raw)
		}
	}, testenv.WithUsers(guest, other))
}
