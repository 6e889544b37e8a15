package mlflow_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// gql posts one GraphQL request to path (default /graphql).
func (c *client) gql(t testing.TB, query string, vars map[string]any) *answer {
	t.Helper()
	body := map[string]any{"query": query}
	if vars != nil {
		body["variables"] = vars
	}
	root := &client{e: c.e, auth: c.auth, prefix: "/"}
	return root.post(t, "graphql", body)
}

// data fails unless the answer is 200 with errors null, and returns data.
func (a *answer) data(t testing.TB) map[string]any {
	t.Helper()
	body := a.ok(t)
	if v, ok := body["errors"]; !ok || v != nil {
		t.Fatalf("want errors null: %s", a.Raw)
	}
	d, _ := body["data"].(map[string]any)
	return d
}

// gqlFails checks a 200 answer whose first error message contains part.
func (a *answer) gqlFails(t testing.TB, part string) {
	t.Helper()
	body := a.ok(t)
	errs, _ := body["errors"].([]any)
	if len(errs) == 0 {
		t.Fatalf("want errors: %s", a.Raw)
	}
	msg, _ := errs[0].(string)
	if !strings.Contains(msg, part) {
		t.Fatalf("error %q does not say %q", msg, part)
	}
}

// TestGraphQL: each query of MLflow's UI answers what the REST calls
// answer for the same records, on both backends.
func TestGraphQL(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "gql-exp")
		r1 := c.run(t, exp, map[string]any{"run_name": "first", "start_time": 1000})
		r2 := c.run(t, exp, map[string]any{"run_name": "second", "start_time": 2000})
		c.post(t, "runs/log-batch", map[string]any{"run_id": r1,
			"metrics": []map[string]any{{"key": "loss", "value": 0.5, "timestamp": 7, "step": 1}, {"key": "loss", "value": 0.25, "timestamp": 8, "step": 2},
				{"key": "bad", "value": "NaN", "timestamp": 9, "step": 3}},
			"params": []map[string]any{{"key": "lr", "value": "0.1"}}, "tags": []map[string]any{{"key": "team", "value": "a"}}}).ok(t)
		c.post(t, "runs/log-inputs", map[string]any{"run_id": r1, "datasets": []map[string]any{
			{"dataset": map[string]any{"name": "d1", "digest": "1", "source_type": "local", "source": "x"}},
			{"dataset": map[string]any{"name": "d2", "digest": "2", "source_type": "local", "source": "x"},
				"tags": []map[string]any{{"key": "mlflow.data.context", "value": "training"}}}}}).ok(t)
		c.post(t, "registered-models/create", map[string]any{"name": "gql-model"}).ok(t)
		c.post(t, "model-versions/create", map[string]any{"name": "gql-model", "source": "runs:/" + r1 + "/model", "run_id": r1}).ok(t)

		cases := []struct {
			name, query string
			vars        map[string]any
			check       func(t *testing.T, d map[string]any)
		}{
			{"echo with the UI's directive", `query q @component(name: "T") { test(inputString: "abc") { output } }`, nil,
				func(t *testing.T, d map[string]any) {
					if str(d, "test", "output") != "abc" {
						t.Fatalf("%v", d)
					}
				}},
			{"experiment", `query($id: String) { mlflowGetExperiment(input: {experimentId: $id}) { experiment { experimentId name lifecycleStage creationTime tags { key } effectiveTraceArchivalRetention workspace } apiError { code } } }`,
				map[string]any{"id": exp}, func(t *testing.T, d map[string]any) {
					e := at(d, "mlflowGetExperiment", "experiment")
					if str(e, "name") != "gql-exp" || str(e, "experimentId") != exp || str(e, "lifecycleStage") != "active" {
						t.Fatalf("%v", d)
					}
					if _, ok := at(e, "creationTime").(string); !ok {
						t.Fatalf("LongString is a string: %v", e)
					}
					if l, ok := at(e, "tags").([]any); !ok || len(l) != 0 {
						t.Fatalf("no tags is []: %v", e)
					}
					if at(d, "mlflowGetExperiment", "apiError") != nil {
						t.Fatalf("apiError is null: %v", d)
					}
					// MLflow 3.17's UI asks; no trace archival, no workspaces
					if m, _ := e.(map[string]any); m == nil || m["effectiveTraceArchivalRetention"] != nil || m["workspace"] != nil {
						t.Fatalf("archival retention and workspace are null: %v", e)
					}
					if _, ok := e.(map[string]any)["workspace"]; !ok {
						t.Fatalf("workspace answered: %v", e)
					}
				}},
			{"run with experiment, versions, metrics (NaN is null)", fmt.Sprintf(`{ mlflowGetRun(input: {runId: %q}) { run {
				info { runId runName status startTime endTime lifecycleStage }
				data { metrics { key value step timestamp } params { key value } tags { key value } }
				inputs { datasetInputs { dataset { name digest } tags { key value } } }
				experiment { name } modelVersions { name version runId } } } }`, r1), nil,
				func(t *testing.T, d map[string]any) {
					run := at(d, "mlflowGetRun", "run")
					if str(run, "info", "runId") != r1 || str(run, "info", "runName") != "first" || str(run, "info", "status") != "RUNNING" ||
						str(run, "info", "startTime") != "1000" || str(run, "info", "endTime") != "0" {
						t.Fatalf("info: %v", at(run, "info"))
					}
					if str(run, "experiment", "name") != "gql-exp" || str(run, "modelVersions", 0, "name") != "gql-model" ||
						str(run, "modelVersions", 0, "version") != "1" {
						t.Fatalf("experiment, versions: %v", run)
					}
					vals := map[string]any{}
					for _, m := range at(run, "data", "metrics").([]any) {
						vals[str(m, "key")] = at(m, "value")
					}
					if vals["loss"] != 0.25 || vals["bad"] != nil || len(vals) != 2 {
						t.Fatalf("latest metrics, NaN as null: %v", vals)
					}
					if kv(at(run, "data", "params"))["lr"] != "0.1" || kv(at(run, "data", "tags"))["team"] != "a" {
						t.Fatalf("params, tags: %v", at(run, "data"))
					}
					if str(run, "inputs", "datasetInputs", 1, "dataset", "name") != "d2" {
						t.Fatalf("inputs: %v", at(run, "inputs"))
					}
				}},
			{"a run without versions answers []", fmt.Sprintf(`{ mlflowGetRun(input: {runUuid: %q}) { run { modelVersions { name } } } }`, r2), nil,
				func(t *testing.T, d map[string]any) {
					if l, ok := at(d, "mlflowGetRun", "run", "modelVersions").([]any); !ok || len(l) != 0 {
						t.Fatalf("%v", d)
					}
				}},
			{"search runs (query), newest first", fmt.Sprintf(`{ mlflowSearchRuns(input: {experimentIds: [%q]}) { runs { info { runId } } nextPageToken } }`, exp), nil,
				func(t *testing.T, d map[string]any) {
					if str(d, "mlflowSearchRuns", "runs", 0, "info", "runId") != r2 || str(d, "mlflowSearchRuns", "runs", 1, "info", "runId") != r1 {
						t.Fatalf("%v", d)
					}
				}},
			{"search runs (mutation) with a filter and a page", fmt.Sprintf(`mutation m { mlflowSearchRuns(input: {experimentIds: [%q], filter: "params.lr = '0.1'", maxResults: 1, runViewType: ALL}) { runs { info { runId } } nextPageToken } }`, exp), nil,
				func(t *testing.T, d map[string]any) {
					runs := at(d, "mlflowSearchRuns", "runs").([]any)
					if len(runs) != 1 || str(runs[0], "info", "runId") != r1 {
						t.Fatalf("%v", d)
					}
				}},
			{"metric history bulk interval", fmt.Sprintf(`{ mlflowGetMetricHistoryBulkInterval(input: {runIds: [%q], metricKey: "loss", maxResults: 10}) { metrics { key value step timestamp runId } } }`, r1), nil,
				func(t *testing.T, d map[string]any) {
					ms := at(d, "mlflowGetMetricHistoryBulkInterval", "metrics").([]any)
					if len(ms) != 2 || at(ms[0], "value") != 0.5 || str(ms[1], "step") != "2" || str(ms[1], "timestamp") != "8" || str(ms[0], "runId") != r1 {
						t.Fatalf("%v", ms)
					}
				}},
			{"search datasets", fmt.Sprintf(`mutation { mlflowSearchDatasets(input: {experimentIds: [%q]}) { datasetSummaries { experimentId name digest context } } }`, exp), nil,
				func(t *testing.T, d map[string]any) {
					got := map[string]string{}
					for _, s := range at(d, "mlflowSearchDatasets", "datasetSummaries").([]any) {
						if str(s, "experimentId") != exp {
							t.Fatalf("%v", s)
						}
						got[str(s, "name")+"@"+str(s, "digest")] = str(s, "context")
					}
					if len(got) != 2 || got["d1@1"] != "" || got["d2@2"] != "training" {
						t.Fatalf("%v", got)
					}
				}},
			{"search model versions", `{ mlflowSearchModelVersions(input: {filter: "name = 'gql-model'", maxResults: "5"}) { modelVersions { name version status currentStage source aliases } } }`, nil,
				func(t *testing.T, d map[string]any) {
					v := at(d, "mlflowSearchModelVersions", "modelVersions", 0)
					if str(v, "name") != "gql-model" || str(v, "status") != "READY" || str(v, "currentStage") != "None" || str(v, "source") != "runs:/"+r1+"/model" {
						t.Fatalf("%v", d)
					}
				}},
			{"list artifacts of a run without files", fmt.Sprintf(`{ mlflowListArtifacts(input: {runId: %q}) { rootUri files { path } } }`, r1), nil,
				func(t *testing.T, d map[string]any) {
					if !strings.HasSuffix(str(d, "mlflowListArtifacts", "rootUri"), r1+"/artifacts") {
						t.Fatalf("%v", d)
					}
				}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) { tc.check(t, c.gql(t, tc.query, tc.vars).data(t)) })
		}

		// errors are messages, the field null, as MLflow answers them
		a := c.gql(t, `{ mlflowGetRun(input: {runId: "nope"}) { run { info { runId } } } }`, nil)
		a.gqlFails(t, "nope")
		if at(a.Body, "data", "mlflowGetRun") != nil {
			t.Fatalf("a failed field is null: %s", a.Raw)
		}
		c.gql(t, `{ mlflowGetRun(input: {}) { run { info { runId } } } }`, nil).gqlFails(t, "run_id")
		c.gql(t, `{ mlflowGetMetricHistoryBulkInterval(input: {runIds: [], metricKey: "loss"}) { metrics { key } } }`, nil).gqlFails(t, "run_ids")
		c.gql(t, `{ mlflowSearchRuns(input: {experimentIds: ["0"], filter: "metrics.x >> 1"}) { runs { info { runId } } } }`, nil).gqlFails(t, "metric 'x'")
		c.gql(t, `mutation { mlflowSearchDatasets(input: {}) { datasetSummaries { name } } }`, nil).gqlFails(t, "at least one experiment_id")
		c.gql(t, `{ mlflowGetExperiment(input: {experimentId: "1"}) { experiment { secret } } }`, nil).gqlFails(t, `Cannot query field "secret"`)
		c.gql(t, `{ nope }`, nil).gqlFails(t, `Cannot query field "nope"`)
		c.gql(t, `{ test(inputString: "a" `, nil).gqlFails(t, "Expected")

		// GET with the query string; the ajax path
		root := &client{e: c.e, auth: c.auth, prefix: "/"}
		d := root.get(t, "graphql", url.Values{"query": {`query($s: String) { test(inputString: $s) { output } }`}, "variables": {`{"s": "via get"}`}}).data(t)
		if str(d, "test", "output") != "via get" {
			t.Fatalf("GET: %v", d)
		}
		ajax := &client{e: c.e, auth: c.auth, prefix: "/ajax-api/"}
		if str(ajax.post(t, "graphql", map[string]any{"query": `{ test(inputString: "x") { output } }`}).data(t), "test", "output") != "x" {
			t.Fatal("ajax-api/graphql")
		}

		// the REST call behind mlflowSearchDatasets
		sum := c.post(t, "experiments/search-datasets", map[string]any{"experiment_ids": []string{exp}}).ok(t)
		if l, _ := sum["dataset_summaries"].([]any); len(l) != 2 {
			t.Fatalf("search-datasets: %v", sum)
		}
		c.post(t, "experiments/search-datasets", map[string]any{}).fails(t, 400, "INVALID_PARAMETER_VALUE", "at least one experiment_id")
		many := make([]string, 21)
		for i := range many {
			many[i] = exp
		}
		c.post(t, "experiments/search-datasets", map[string]any{"experiment_ids": many}).fails(t, 400, "INVALID_PARAMETER_VALUE", "more than 20")
	})
}
