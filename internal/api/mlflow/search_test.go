package mlflow_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// Run search: the filter language over metrics, params, tags and
// attributes, order_by, view types, pages and the errors of bad filters.
func TestRunSearch(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "search-runs")
		other := c.experiment(t, "search-other")
		mk := func(name string, loss float64, lr, team string, start int64) string {
			id := c.run(t, exp, map[string]any{"run_name": name, "start_time": start})
			c.post(t, "runs/log-batch", map[string]any{"run_id": id,
				"metrics": []map[string]any{{"key": "val/loss", "value": loss, "timestamp": 1, "step": 0}},
				"params":  []map[string]string{{"key": "lr", "value": lr}},
				"tags":    []map[string]string{{"key": "team", "value": team}}}).ok(t)
			return id
		}
		a := mk("alpha", 0.9, "0.1", "Vision", 1000)
		b := mk("beta", 0.5, "0.01", "nlp", 2000)
		g := mk("gamma", 0.1, "0.001", "vision", 3000)
		c.post(t, "runs/update", map[string]any{"run_id": b, "status": "FINISHED"}).ok(t)
		c.post(t, "runs/log-metric", map[string]any{"run_id": g, "key": "val/loss", "value": "NaN", "timestamp": 2, "step": 1}).ok(t)
		c.run(t, other, map[string]any{"run_name": "elsewhere"})
		d := c.run(t, exp, map[string]any{"run_name": "deleted-one", "start_time": 500})
		c.post(t, "runs/delete", map[string]any{"run_id": d}).ok(t)

		names := func(body map[string]any) []string {
			var out []string
			l, _ := body["runs"].([]any)
			for _, r := range l {
				out = append(out, str(r, "info", "run_name"))
			}
			return out
		}
		cases := []struct {
			filter string
			order  []string
			view   string
			want   []string
		}{
			{"", nil, "", []string{"gamma", "beta", "alpha"}},                                      // newest start first
			{"metrics.`val/loss` < 0.6", []string{"metrics.`val/loss` ASC"}, "", []string{"beta"}}, // gamma's latest is NaN
			{"metrics.`val/loss` >= 0.5", []string{"metrics.`val/loss` DESC"}, "", []string{"alpha", "beta"}},
			{"params.lr = '0.01'", nil, "", []string{"beta"}},
			{"params.lr != '0.01'", []string{"params.lr"}, "", []string{"gamma", "alpha"}},
			{"tags.team LIKE 'vis%'", nil, "", []string{"gamma"}},
			{"tags.team ILIKE 'VIS%'", []string{"attributes.start_time ASC"}, "", []string{"alpha", "gamma"}},
			{"attributes.status = 'FINISHED'", nil, "", []string{"beta"}},
			{"attributes.status IN ('RUNNING')", []string{"run_name"}, "", []string{"alpha", "gamma"}},
			{"attributes.status NOT IN ('RUNNING')", nil, "", []string{"beta"}},
			{"attributes.run_name = 'alpha'", nil, "", []string{"alpha"}},
			{"attributes.run_id IN ('" + a + "', '" + g + "')", []string{"run_name DESC"}, "", []string{"gamma", "alpha"}},
			{"attributes.start_time > 1500 AND params.lr LIKE '0.0%'", []string{"attributes.start_time"}, "", []string{"beta", "gamma"}},
			{"", nil, "DELETED_ONLY", []string{"deleted-one"}},
			{"", []string{"attributes.start_time"}, "ALL", []string{"deleted-one", "alpha", "beta", "gamma"}},
			{"tags.absent = 'x'", nil, "", nil},
		}
		for _, tc := range cases {
			body := map[string]any{"experiment_ids": []string{exp}, "filter": tc.filter, "order_by": tc.order}
			if tc.view != "" {
				body["run_view_type"] = tc.view
			}
			got := names(c.post(t, "runs/search", body).ok(t))
			if !slices.Equal(got, tc.want) {
				t.Errorf("%q %v %s: got %v, want %v", tc.filter, tc.order, tc.view, got, tc.want)
			}
		}
		// two experiments, pages of two
		var all []string
		tok := ""
		for range 4 {
			body := map[string]any{"experiment_ids": []string{exp, other}, "max_results": 2, "order_by": []string{"run_name"}}
			if tok != "" {
				body["page_token"] = tok
			}
			res := c.post(t, "runs/search", body).ok(t)
			all = append(all, names(res)...)
			if tok = str(res, "next_page_token"); tok == "" {
				break
			}
		}
		if !slices.Equal(all, []string{"alpha", "beta", "elsewhere", "gamma"}) {
			t.Fatalf("pages: %v", all)
		}
		// experiment ids of a run are answered per run
		res := c.post(t, "runs/search", map[string]any{"experiment_ids": []string{other}}).ok(t)
		if str(res, "runs", 0, "info", "experiment_id") != other {
			t.Fatalf("experiment id of a found run: %v", res)
		}
		for _, bad := range []string{"metrics.x < 'a'", "params.lr > '1'", "nope.x = '1'", "params.lr = '1' OR params.lr = '2'", "datasets.size = 'x'", "datasets.name > 'x'"} {
			c.post(t, "runs/search", map[string]any{"experiment_ids": []string{exp}, "filter": bad}).fails(t, 400, "INVALID_PARAMETER_VALUE", "")
		}
		c.post(t, "runs/search", map[string]any{"experiment_ids": []string{exp}, "order_by": []string{"metrics.x sideways"}}).fails(t, 400, "INVALID_PARAMETER_VALUE", "order_by")
		c.post(t, "runs/search", map[string]any{"experiment_ids": []string{exp}, "max_results": 50001}).fails(t, 400, "INVALID_PARAMETER_VALUE", "max_results")
	})
}

// The transport: both path prefixes, MLflow's error envelope for unknown
// paths, wrong methods, bad bodies and missing or bad credentials, roles
// (a guest reads, never writes), company isolation, Basic and bearer
// credentials.
func TestEnvelopeAndAccess(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "access-exp")
		ajax := &client{e: c.e, auth: c.auth, prefix: "/ajax-api/2.0/mlflow/"}
		if n := str(ajax.get(t, "experiments/get", url.Values{"experiment_id": {exp}}).ok(t), "experiment", "name"); n != "access-exp" {
			t.Fatalf("ajax prefix: %q", n)
		}
		c.get(t, "experiments/nope", nil).fails(t, 404, "ENDPOINT_NOT_FOUND", "experiments/nope")
		// MLflow 3's prefix: its own rows only, never the ClearML API's answer
		for _, p := range []string{"/api/3.0/mlflow/", "/ajax-api/3.0/mlflow/"} {
			v3 := &client{e: c.e, auth: c.auth, prefix: p}
			v3.get(t, "experiments/get", url.Values{"experiment_id": {exp}}).fails(t, 404, "ENDPOINT_NOT_FOUND", p+"experiments/get")
		}
		c.do(t, "GET", "experiments/create", nil, url.Values{"name": {"x"}}).fails(t, 405, "BAD_REQUEST", "GET")
		c.post(t, "experiments/create", "{not json").fails(t, 400, "BAD_REQUEST", "JSON")
		c.post(t, "experiments/create", `["a list"]`).fails(t, 400, "BAD_REQUEST", "JSON")
		c.post(t, "experiments/create", strings.Repeat("x", 101<<20)).fails(t, 400, "INVALID_PARAMETER_VALUE", "limit")

		anon := &client{e: c.e}
		anon.get(t, "experiments/get", url.Values{"experiment_id": {exp}}).fails(t, 401, "UNAUTHENTICATED", "")
		bad := &client{e: c.e, auth: "Basic bm9wZTpub3Bl"}
		bad.get(t, "experiments/get", url.Values{"experiment_id": {exp}}).fails(t, 401, "UNAUTHENTICATED", "")

		// Basic with an access key and secret works as the bearer token does
		admin := &client{e: c.e, auth: "Basic " + basic(testenv.AdminKey, testenv.AdminSecret)}
		if n := str(admin.get(t, "experiments/get", url.Values{"experiment_id": {exp}}).ok(t), "experiment", "name"); n != "access-exp" {
			t.Fatalf("basic: %q", n)
		}

		guest := c.as(guestUser)
		guest.get(t, "experiments/get", url.Values{"experiment_id": {exp}}).ok(t)
		guest.post(t, "runs/search", map[string]any{"experiment_ids": []string{exp}}).ok(t)
		guest.post(t, "experiments/create", map[string]any{"name": "guest-exp"}).fails(t, 403, "PERMISSION_DENIED", "")
		guest.post(t, "runs/create", map[string]any{"experiment_id": exp}).fails(t, 403, "PERMISSION_DENIED", "")

		// another company sees none of it and may reuse the name
		run := c.run(t, exp, nil)
		other := c.as(otherUser)
		other.get(t, "experiments/get", url.Values{"experiment_id": {exp}}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", exp)
		other.get(t, "runs/get", url.Values{"run_id": {run}}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", run)
		other.post(t, "runs/log-parameter", map[string]any{"run_id": run, "key": "k", "value": "v"}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", run)
		if res := other.post(t, "runs/search", map[string]any{"experiment_ids": []string{exp}}).ok(t); len(res) != 0 {
			t.Fatalf("other company found %v", res)
		}
		other.experiment(t, "access-exp")
		other.get(t, "experiments/get-by-name", url.Values{"experiment_name": {"access-exp"}}).ok(t)

		// a change carried by the session cookie alone from another site is refused
		req, _ := http.NewRequest("POST", c.e.URL+"/api/2.0/mlflow/experiments/create", strings.NewReader(`{"name":"cookie-exp"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", "https://evil.example")
		req.AddCookie(&http.Cookie{Name: "clearml_token_basic", Value: c.e.Token})
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 403 {
			t.Fatalf("cross-site cookie change answered %d", resp.StatusCode)
		}
	})
}
