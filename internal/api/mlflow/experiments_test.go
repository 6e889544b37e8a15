package mlflow_test

import (
	"net/url"
	"testing"
)

// Experiments: create, get, get-by-name, update (rename), set and delete
// tags, delete and restore, the Default experiment "0", and the errors
// MLflow's client tells apart.
func TestExperiments(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		id := c.experiment(t, "team/exp-one")
		c.post(t, "experiments/create", map[string]any{"name": "team/exp-one"}).fails(t, 400, "RESOURCE_ALREADY_EXISTS", "team/exp-one")
		c.post(t, "experiments/create", map[string]any{}).fails(t, 400, "INVALID_PARAMETER_VALUE", "'name'")
		c.post(t, "experiments/create", map[string]any{"name": 5}).fails(t, 400, "INVALID_PARAMETER_VALUE", "'name'")

		got := c.get(t, "experiments/get", url.Values{"experiment_id": {id}}).ok(t)
		if str(got, "experiment", "name") != "team/exp-one" || str(got, "experiment", "lifecycle_stage") != "active" ||
			str(got, "experiment", "experiment_id") != id {
			t.Fatalf("get: %v", got)
		}
		byName := c.get(t, "experiments/get-by-name", url.Values{"experiment_name": {"team/exp-one"}}).ok(t)
		if str(byName, "experiment", "experiment_id") != id {
			t.Fatalf("get-by-name: %v", byName)
		}
		c.get(t, "experiments/get", url.Values{"experiment_id": {"nope"}}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "nope")
		c.get(t, "experiments/get-by-name", url.Values{"experiment_name": {"absent"}}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "absent")

		// names the project rules would change keep their exact spelling
		short := c.experiment(t, "x")
		slash := c.experiment(t, "/Users/me/exp")
		for want, eid := range map[string]string{"x": short, "/Users/me/exp": slash} {
			if n := str(c.get(t, "experiments/get", url.Values{"experiment_id": {eid}}).ok(t), "experiment", "name"); n != want {
				t.Fatalf("name %q came back as %q", want, n)
			}
			if g := str(c.get(t, "experiments/get-by-name", url.Values{"experiment_name": {want}}).ok(t), "experiment", "experiment_id"); g != eid {
				t.Fatalf("get-by-name %q: %q", want, g)
			}
		}

		// Default is id 0, before and after its first run
		if n := str(c.get(t, "experiments/get", url.Values{"experiment_id": {"0"}}).ok(t), "experiment", "name"); n != "Default" {
			t.Fatalf("experiment 0 is %q", n)
		}
		c.run(t, "0", nil)
		if g := str(c.get(t, "experiments/get-by-name", url.Values{"experiment_name": {"Default"}}).ok(t), "experiment", "experiment_id"); g != "0" {
			t.Fatalf("Default has id %q", g)
		}
		c.post(t, "experiments/delete", map[string]any{"experiment_id": "0"}).fails(t, 400, "INVALID_PARAMETER_VALUE", "default experiment")

		// rename, and the old name is free again
		c.post(t, "experiments/update", map[string]any{"experiment_id": id, "new_name": "team/exp-renamed"}).ok(t)
		if n := str(c.get(t, "experiments/get", url.Values{"experiment_id": {id}}).ok(t), "experiment", "name"); n != "team/exp-renamed" {
			t.Fatalf("renamed to %q", n)
		}
		c.post(t, "experiments/update", map[string]any{"experiment_id": id, "new_name": "x"}).fails(t, 400, "RESOURCE_ALREADY_EXISTS", "x")

		// tags
		c.post(t, "experiments/set-experiment-tag", map[string]any{"experiment_id": id, "key": "k/with.dots", "value": ""}).ok(t)
		c.post(t, "experiments/set-experiment-tag", map[string]any{"experiment_id": id, "key": "team", "value": "vision"}).ok(t)
		tags := kv(at(c.get(t, "experiments/get", url.Values{"experiment_id": {id}}).ok(t), "experiment", "tags"))
		if tags["team"] != "vision" || tags["k/with.dots"] != "" || len(tags) != 2 {
			t.Fatalf("tags %v", tags)
		}
		c.post(t, "experiments/delete-experiment-tag", map[string]any{"experiment_id": id, "key": "team"}).ok(t)
		c.post(t, "experiments/delete-experiment-tag", map[string]any{"experiment_id": id, "key": "team"}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "team")

		// delete and restore
		c.post(t, "experiments/delete", map[string]any{"experiment_id": id}).ok(t)
		if s := str(c.get(t, "experiments/get", url.Values{"experiment_id": {id}}).ok(t), "experiment", "lifecycle_stage"); s != "deleted" {
			t.Fatalf("deleted experiment is %q", s)
		}
		c.post(t, "runs/create", map[string]any{"experiment_id": id}).fails(t, 400, "INVALID_PARAMETER_VALUE", "active")
		c.post(t, "experiments/set-experiment-tag", map[string]any{"experiment_id": id, "key": "a", "value": "b"}).fails(t, 400, "INVALID_PARAMETER_VALUE", "active")
		c.post(t, "experiments/restore", map[string]any{"experiment_id": id}).ok(t)
		if s := str(c.get(t, "experiments/get", url.Values{"experiment_id": {id}}).ok(t), "experiment", "lifecycle_stage"); s != "active" {
			t.Fatalf("restored experiment is %q", s)
		}
	})
}

// Experiment search: view types, the filter (name, tags), order and pages.
func TestExperimentSearch(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		ids := map[string]string{}
		for _, n := range []string{"search-a", "search-b", "search-c", "other-d"} {
			ids[n] = c.experiment(t, n)
		}
		c.post(t, "experiments/set-experiment-tag", map[string]any{"experiment_id": ids["search-b"], "key": "k", "value": "v"}).ok(t)
		c.post(t, "experiments/delete", map[string]any{"experiment_id": ids["search-c"]}).ok(t)
		names := func(body map[string]any) []string {
			var out []string
			l, _ := body["experiments"].([]any)
			for _, e := range l {
				out = append(out, str(e, "name"))
			}
			return out
		}
		cases := []struct {
			name string
			body map[string]any
			want []string
		}{
			{"active, by name, Default made by the first search", map[string]any{"order_by": []string{"name ASC"}}, []string{"Default", "other-d", "search-a", "search-b"}},
			{"deleted only", map[string]any{"view_type": "DELETED_ONLY"}, []string{"search-c"}},
			{"all, name desc, LIKE", map[string]any{"view_type": "ALL", "filter": "name LIKE 'search-%'", "order_by": []string{"name DESC"}}, []string{"search-c", "search-b", "search-a"}},
			{"ILIKE", map[string]any{"filter": "name ILIKE 'SEARCH-A'"}, []string{"search-a"}},
			{"LIKE keeps case", map[string]any{"filter": "name LIKE 'SEARCH-A'"}, nil},
			{"tag", map[string]any{"filter": "tags.k = 'v'"}, []string{"search-b"}},
			{"name !=", map[string]any{"filter": "attribute.name != 'search-a' AND name LIKE 'search%'", "order_by": []string{"name"}}, []string{"search-b"}},
			// MLflow 3's UI lists experiments with "tags.`mlflow.experiment.isGateway` IS NULL"
			{"tag IS NULL", map[string]any{"filter": "tags.`k` IS NULL AND name LIKE 'search-%'", "order_by": []string{"name"}}, []string{"search-a"}},
			{"tag IS NOT NULL", map[string]any{"filter": "tags.k is not null"}, []string{"search-b"}},
		}
		for _, tc := range cases {
			got := names(c.post(t, "experiments/search", tc.body).ok(t))
			if len(got) != len(tc.want) {
				t.Fatalf("%s: got %v, want %v", tc.name, got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("%s: got %v, want %v", tc.name, got, tc.want)
				}
			}
		}
		// pages of one, over GET with repeated keys
		var seen []string
		tok := ""
		for i := 0; i < 5; i++ {
			q := url.Values{"max_results": {"1"}, "order_by": {"name ASC"}, "filter": {"name LIKE 'search-%'"}}
			if tok != "" {
				q.Set("page_token", tok)
			}
			body := c.get(t, "experiments/search", q).ok(t)
			seen = append(seen, names(body)...)
			tok = str(body, "next_page_token")
			if tok == "" {
				break
			}
		}
		if len(seen) != 2 || seen[0] != "search-a" || seen[1] != "search-b" {
			t.Fatalf("pages gave %v", seen)
		}
		c.post(t, "experiments/search", map[string]any{"filter": "name >> 'a'"}).fails(t, 400, "INVALID_PARAMETER_VALUE", "name")
		c.post(t, "experiments/search", map[string]any{"filter": "params.x = 'a'"}).fails(t, 400, "INVALID_PARAMETER_VALUE", "x")
		c.post(t, "experiments/search", map[string]any{"filter": "name IS NULL"}).fails(t, 400, "INVALID_PARAMETER_VALUE", "tags only")
		c.post(t, "experiments/search", map[string]any{"max_results": 0}).fails(t, 400, "INVALID_PARAMETER_VALUE", "max_results")
		c.post(t, "experiments/search", map[string]any{"page_token": "???"}).fails(t, 400, "INVALID_PARAMETER_VALUE", "page token")
		c.post(t, "experiments/search", map[string]any{"view_type": "SOME"}).fails(t, 400, "INVALID_PARAMETER_VALUE", "view_type")
	})
}
