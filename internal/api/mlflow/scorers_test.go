package mlflow_test

import (
	"net/url"
	"strings"
	"testing"
)

func TestScorers(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		v3 := c.v3()
		exp := c.experiment(t, "scorers")
		reg := func(name, def string) float64 {
			v, _ := at(v3.post(t, "scorers/register", map[string]any{"experiment_id": exp, "name": name, "serialized_scorer": def}).ok(t), "version").(float64)
			return v
		}
		// a definition is stored as given, never run
		evil := `{"call_source": "import os; os.system('rm -rf /')"}`
		if v := reg("relevance", `{"v": 1}`); v != 1 {
			t.Fatalf("first version %v", v)
		}
		if v := reg("relevance", evil); v != 2 {
			t.Fatalf("second version %v", v)
		}
		reg("safety", `{"s": 1}`)
		list := v3.get(t, "scorers/list", url.Values{"experiment_id": {exp}}).ok(t)
		if l, _ := at(list, "scorers").([]any); len(l) != 2 || str(l[0], "scorer_name") != "relevance" || at(l[0], "scorer_version") != 2.0 ||
			str(l[0], "serialized_scorer") != evil || str(l[1], "scorer_name") != "safety" {
			t.Fatalf("latest of each: %v", list)
		}
		vs := v3.get(t, "scorers/versions", url.Values{"experiment_id": {exp}, "name": {"relevance"}}).ok(t)
		if l, _ := at(vs, "scorers").([]any); len(l) != 2 || at(l[0], "scorer_version") != 1.0 {
			t.Fatalf("versions: %v", vs)
		}
		if g := v3.get(t, "scorers/get", url.Values{"experiment_id": {exp}, "name": {"relevance"}}).ok(t); at(g, "scorer", "scorer_version") != 2.0 {
			t.Fatalf("latest: %v", g)
		}
		if g := v3.get(t, "scorers/get", url.Values{"experiment_id": {exp}, "name": {"relevance"}, "version": {"1"}}).ok(t); str(g, "scorer", "serialized_scorer") != `{"v": 1}` {
			t.Fatalf("version 1: %v", g)
		}
		// delete one version (a JSON body, as MLflow's client sends), then all
		v3.do(t, "DELETE", "scorers/delete", map[string]any{"experiment_id": exp, "name": "relevance", "version": 1}, nil).ok(t)
		v3.get(t, "scorers/get", url.Values{"experiment_id": {exp}, "name": {"relevance"}, "version": {"1"}}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "version 1 not found")
		v3.do(t, "DELETE", "scorers/delete", map[string]any{"experiment_id": exp, "name": "relevance"}, nil).ok(t)
		v3.get(t, "scorers/versions", url.Values{"experiment_id": {exp}, "name": {"relevance"}}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "'relevance' not found")
		v3.do(t, "DELETE", "scorers/delete", map[string]any{"experiment_id": exp, "name": "relevance"}, nil).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "not found")
		if l, _ := at(v3.get(t, "scorers/list", url.Values{"experiment_id": {exp}}).ok(t), "scorers").([]any); len(l) != 1 {
			t.Fatalf("after the deletes: %v", l)
		}

		// the Default experiment answers experiment_id 0, the one id that fits MLflow's number
		reg0 := v3.post(t, "scorers/register", map[string]any{"experiment_id": "0", "name": "d", "serialized_scorer": "{}"}).ok(t)
		if at(reg0, "version") != 1.0 {
			t.Fatalf("default: %v", reg0)
		}
		if g := v3.get(t, "scorers/get", url.Values{"experiment_id": {"0"}, "name": {"d"}}).ok(t); at(g, "scorer", "experiment_id") != 0.0 {
			t.Fatalf("default's scorer: %v", g)
		}

		// a deleted experiment takes no new scorer
		c.post(t, "experiments/delete", map[string]any{"experiment_id": exp}).ok(t)
		v3.post(t, "scorers/register", map[string]any{"experiment_id": exp, "name": "x", "serialized_scorer": "{}"}).fails(t, 400, "INVALID_PARAMETER_VALUE", "active")
	})
}

func TestScorersBadInputAndIsolation(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		v3, them := c.v3(), c.as(otherUser).v3()
		exp := c.experiment(t, "scorers-bad")
		v3.post(t, "scorers/register", map[string]any{"experiment_id": exp, "name": "s", "serialized_scorer": "{}"}).ok(t)
		for _, tc := range []struct {
			name, method, path string
			body               any
			q                  url.Values
			status             int
			part               string
		}{
			{"no experiment", "POST", "scorers/register", map[string]any{"name": "s", "serialized_scorer": "{}"}, nil, 400, "'experiment_id'"},
			{"no name", "POST", "scorers/register", map[string]any{"experiment_id": exp, "serialized_scorer": "{}"}, nil, 400, "'name'"},
			{"no definition", "POST", "scorers/register", map[string]any{"experiment_id": exp, "name": "s"}, nil, 400, "'serialized_scorer'"},
			{"long name", "POST", "scorers/register", map[string]any{"experiment_id": exp, "name": strings.Repeat("s", 257), "serialized_scorer": "{}"}, nil, 400, "limit of 256"},
			{"huge definition", "POST", "scorers/register", map[string]any{"experiment_id": exp, "name": "s", "serialized_scorer": strings.Repeat("x", 1<<20+1)}, nil, 400, "serialized_scorer"},
			{"bad version", "GET", "scorers/get", nil, url.Values{"experiment_id": {exp}, "name": {"s"}, "version": {"one"}}, 400, "'version'"},
			{"zero version", "GET", "scorers/get", nil, url.Values{"experiment_id": {exp}, "name": {"s"}, "version": {"0"}}, 400, "'version'"},
			{"unknown experiment", "GET", "scorers/list", nil, url.Values{"experiment_id": {"nope"}}, 404, "nope"},
			{"unknown scorer", "GET", "scorers/get", nil, url.Values{"experiment_id": {exp}, "name": {"zz"}}, 404, "'zz' not found"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				code := "INVALID_PARAMETER_VALUE"
				if tc.status == 404 {
					code = "RESOURCE_DOES_NOT_EXIST"
				}
				v3.do(t, tc.method, tc.path, tc.body, tc.q).fails(t, tc.status, code, tc.part)
			})
		}
		// another company: the experiment does not exist for them
		them.get(t, "scorers/list", url.Values{"experiment_id": {exp}}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", exp)
		them.get(t, "scorers/get", url.Values{"experiment_id": {exp}, "name": {"s"}}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", exp)
		them.post(t, "scorers/register", map[string]any{"experiment_id": exp, "name": "s", "serialized_scorer": "{}"}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", exp)
		them.do(t, "DELETE", "scorers/delete", map[string]any{"experiment_id": exp, "name": "s"}, nil).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", exp)
		// their Default experiment is their own
		if l := them.get(t, "scorers/list", url.Values{"experiment_id": {"0"}}).ok(t); len(l) != 0 {
			t.Fatalf("their default's scorers: %v", l)
		}
		if l, _ := at(v3.get(t, "scorers/list", url.Values{"experiment_id": {exp}}).ok(t), "scorers").([]any); len(l) != 1 {
			t.Fatalf("mine after their tries: %v", l)
		}
	})
}
