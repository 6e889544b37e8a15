package mlflow_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/testenv"
)

func repeat(n int, f func(i int) string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = f(i)
	}
	return strings.Join(parts, " ")
}

// TestGraphQLHostileQueries: queries past MLflow's bounds (depth,
// selections, root fields, aliases), past the query size, fragments
// that expand without end, batches and broken bodies are refused at
// once with a message, never a 500 or a long run.
func TestGraphQLHostileQueries(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		c := &client{e: e, auth: "Bearer " + e.Token}
		deep := "name"
		for range 12 {
			deep = "name { " + deep + " }"
		}
		// fragments that each spread the previous ten times: 10^8 fields
		bomb := "fragment F0 on MlflowExperiment { name }\n"
		for i := 1; i <= 8; i++ {
			bomb += fmt.Sprintf("fragment F%d on MlflowExperiment { %s }\n", i, repeat(10, func(int) string { return fmt.Sprintf("...F%d", i-1) }))
		}
		bomb += `{ mlflowGetExperiment(input: {experimentId: "0"}) { experiment { ...F8 } } }`
		cases := []struct{ name, query, part string }{
			{"depth", `{ mlflowGetExperiment(input: {experimentId: "0"}) { experiment { ` + deep + ` } } }`, "Query exceeds maximum depth of 10"},
			{"selections", `{ mlflowGetExperiment(input: {experimentId: "0"}) { experiment { ` +
				repeat(1002, func(i int) string { return fmt.Sprintf("f%d { name }", i) }) + ` } } }`, "Query exceeds maximum total selections of 1000"},
			{"root fields", `{ ` + repeat(11, func(i int) string { return fmt.Sprintf(`k%d: test(inputString: "a") { output }`, i) }) + ` }`,
				"GraphQL queries should have at most 10 root fields, got 11 root fields"},
			{"aliases", `{ mlflowGetExperiment(input: {experimentId: "0"}) { experiment { ` +
				repeat(11, func(i int) string { return fmt.Sprintf("a%d: name", i) }) + ` } } }`, "GraphQL queries should have at most 10 aliases, got 11 aliases"},
			{"size", `{ test(inputString: "` + strings.Repeat("x", 100_001) + `") { output } }`, "at most 100000 are allowed"},
			{"tokens", `{ test(inputString: "a") { output } x: test(inputString: [` + strings.Repeat("[]", 30_000) + `]) { output } }`, "token"},
			{"nested values", `{ test(inputString: ` + strings.Repeat("[", 30_000) + strings.Repeat("]", 30_000) + `) { output } }`, "nesting depth"},
			{"fragment expansion", bomb, "selections"},
			{"fragment cycle", `fragment A on MlflowExperiment { ...B } fragment B on MlflowExperiment { ...A } { mlflowGetExperiment(input: {experimentId: "0"}) { experiment { ...A } } }`, "Cannot spread fragment"},
			{"inline fragments nested", `{ test(inputString: "a") { ` + strings.Repeat("... on Test { ", 12) + "output" + strings.Repeat(" }", 12) + ` } }`, "Query exceeds maximum depth of 10"},
			{"unknown operation", `query a { test(inputString: "a") { output } } query b { test(inputString: "b") { output } }`, "operation"},
			{"syntax", `{ test(inputString: "a" { output } }`, "Expected"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				start := time.Now()
				c.gql(t, tc.query, nil).gqlFails(t, tc.part)
				if d := time.Since(start); d > 5*time.Second {
					t.Fatalf("took %s", d)
				}
			})
		}
		// at the bounds, a query runs
		c.gql(t, `{ `+repeat(10, func(i int) string { return fmt.Sprintf(`k%d: test(inputString: "a") { output }`, i) })+` }`, nil).data(t)
		root := &client{e: e, auth: c.auth, prefix: "/"}
		root.post(t, "graphql", `[{"query": "{ test { output } }"}, {"query": "{ test { output } }"}]`).fails(t, 400, "BAD_REQUEST", "Batched GraphQL requests are not supported")
		root.post(t, "graphql", `{"query": `).fails(t, 400, "BAD_REQUEST", "not a GraphQL request")
		root.post(t, "graphql", `{"query": 5}`).fails(t, 400, "BAD_REQUEST", "not a GraphQL request")
		root.post(t, "graphql", map[string]any{"operationName": "x"}).fails(t, 400, "INVALID_PARAMETER_VALUE", "'query'")
		root.post(t, "graphql", map[string]any{"query": "{ test { output } }", "variables": strings.Repeat("x", 2<<20)}).fails(t, 400, "INVALID_PARAMETER_VALUE", "larger than the limit")
		root.do(t, "PUT", "graphql", map[string]any{"query": "{ test { output } }"}, nil).fails(t, 405, "BAD_REQUEST", "not allowed")
		root.get(t, "graphql", map[string][]string{"query": {"{ test { output } }"}, "variables": {"[1"}}).fails(t, 400, "INVALID_PARAMETER_VALUE", "variables")
	}, func(c *config.Config) { c.MaxBodyMB = 1 })
}

// TestGraphQLAccess: credentials as for REST; a guest reads; another
// company's records are unknown; /version answers without credentials.
func TestGraphQLAccess(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "gql-private")
		run := c.run(t, exp, nil)
		q := fmt.Sprintf(`{ mlflowGetRun(input: {runId: %q}) { run { info { runId } experiment { name } } } }`, run)

		anon := &client{e: c.e}
		anon.gql(t, q, nil).fails(t, 401, "UNAUTHENTICATED", "")
		bad := &client{e: c.e, auth: "Basic " + basic("MLFGUESTKEY000000000", "wrong-secret-000000000000000000000")}
		bad.gql(t, q, nil).fails(t, 401, "UNAUTHENTICATED", "")

		if str(c.as(guestUser).gql(t, q, nil).data(t), "mlflowGetRun", "run", "experiment", "name") != "gql-private" {
			t.Fatal("a guest reads")
		}
		c.as(guestUser).gql(t, fmt.Sprintf(`mutation { mlflowSearchRuns(input: {experimentIds: [%q]}) { runs { info { runId } } } }`, exp), nil).data(t)

		other := c.as(otherUser)
		other.gql(t, q, nil).gqlFails(t, run)
		other.gql(t, fmt.Sprintf(`{ mlflowGetExperiment(input: {experimentId: %q}) { experiment { name } } }`, exp), nil).gqlFails(t, exp)
		// searches in another company's experiment find nothing (as REST's)
		d := other.gql(t, fmt.Sprintf(`mutation { mlflowSearchRuns(input: {experimentIds: [%q]}) { runs { info { runId } } } }`, exp), nil).data(t)
		if l, _ := at(d, "mlflowSearchRuns", "runs").([]any); len(l) != 0 {
			t.Fatalf("another company's runs: %v", d)
		}
		c.post(t, "runs/log-inputs", map[string]any{"run_id": run, "datasets": []map[string]any{
			{"dataset": map[string]any{"name": "secret-data", "digest": "1", "source_type": "local", "source": "x"}}}}).ok(t)
		d = other.gql(t, fmt.Sprintf(`mutation { mlflowSearchDatasets(input: {experimentIds: [%q]}) { datasetSummaries { name } } }`, exp), nil).data(t)
		if l, _ := at(d, "mlflowSearchDatasets", "datasetSummaries").([]any); len(l) != 0 {
			t.Fatalf("another company's datasets: %v", d)
		}
		other.gql(t, fmt.Sprintf(`{ mlflowListArtifacts(input: {runId: %q}) { files { path } } }`, run), nil).gqlFails(t, run)

		// /version: MLflow's text answer, no credentials needed
		for _, m := range []string{"GET", "HEAD"} {
			req, _ := http.NewRequest(m, c.e.URL+"/version", nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 64)
			n, _ := resp.Body.Read(buf)
			resp.Body.Close()
			want := "3.4.0"
			if m == "HEAD" {
				want = ""
			}
			if resp.StatusCode != 200 || string(buf[:n]) != want || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
				t.Fatalf("%s /version: %d %q %s", m, resp.StatusCode, buf[:n], resp.Header.Get("Content-Type"))
			}
		}
		(&client{e: c.e, prefix: "/"}).post(t, "version", map[string]any{}).fails(t, 405, "BAD_REQUEST", "not allowed")
	})
}
