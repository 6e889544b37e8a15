package mlflow

import (
	"maps"
	"testing"
)

func TestRouterMatch(t *testing.T) {
	var rt router
	for _, ep := range []endpoint{
		{Path: "runs/get", Methods: get},
		{Path: "logged-models/search", Methods: post},
		{Path: "logged-models/{model_id}", Methods: get},
		{Path: "logged-models/{model_id}", Methods: del},
		{Path: "logged-models/{model_id}/tags/{tag_key...}", Methods: del},
		{Path: "3.0/traces/{trace_id}", Methods: get},
	} {
		rt.add(&ep)
	}
	cases := []struct {
		path, method string
		row          string
		vars         map[string]string
		known        bool
	}{
		{"runs/get", "GET", "runs/get", nil, true},
		{"runs/get/", "GET", "runs/get", nil, true},
		{"runs/get", "POST", "", nil, true},
		{"runs/gets", "GET", "", nil, false},
		{"logged-models/search", "POST", "logged-models/search", nil, true},
		{"logged-models/m-1", "GET", "logged-models/{model_id}", map[string]string{"model_id": "m-1"}, true},
		{"logged-models/m-1", "DELETE", "logged-models/{model_id}", map[string]string{"model_id": "m-1"}, true},
		{"logged-models/m-1", "PATCH", "", nil, true},
		{"logged-models//tags/x", "DELETE", "", nil, false},
		{"logged-models/m-1/tags/a/b", "DELETE", "logged-models/{model_id}/tags/{tag_key...}", map[string]string{"model_id": "m-1", "tag_key": "a/b"}, true},
		{"logged-models/m-1/tags", "DELETE", "", nil, false},
		{"traces/t-1", "GET", "", nil, false},
		{"3.0/traces/t-1", "GET", "3.0/traces/{trace_id}", map[string]string{"trace_id": "t-1"}, true},
	}
	for _, c := range cases {
		ep, vars, known := rt.match(c.path, c.method)
		row := ""
		if ep != nil {
			row = ep.Path
		}
		if row != c.row || known != c.known || !maps.Equal(vars, c.vars) {
			t.Errorf("%s %s: row %q vars %v known %v; want %q %v %v", c.method, c.path, row, vars, known, c.row, c.vars, c.known)
		}
	}
}

func TestRouterRefusesTwoRowsForOneMethod(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic for two rows of GET x/{id}")
		}
	}()
	var rt router
	rt.add(&endpoint{Path: "x/{id}", Methods: get})
	rt.add(&endpoint{Path: "x/{id}", Methods: both})
}

func FuzzRouterMatch(f *testing.F) {
	var rt router
	for _, ep := range []endpoint{
		{Path: "runs/get", Methods: get},
		{Path: "logged-models/{model_id}", Methods: get},
		{Path: "logged-models/{model_id}/tags/{tag_key...}", Methods: del},
	} {
		rt.add(&ep)
	}
	for _, s := range []string{"runs/get", "logged-models/m/tags/a/b", "", "/", "//", "logged-models/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		ep, vars, known := rt.match(path, "DELETE")
		if ep != nil && !known {
			t.Fatalf("%q: a row but not known", path)
		}
		for k, v := range vars {
			if v == "" {
				t.Fatalf("%q: empty %s", path, k)
			}
		}
	})
}
