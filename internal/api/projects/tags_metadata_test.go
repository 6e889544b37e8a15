package projects_test

import (
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

// projects.get_project_tags gathers the tags of the projects themselves:
// the listed ones with their subprojects, or all, filtered by their tags.
func TestProjectTags(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		p1 := create(t, e, obj{"name": "tagged one", "tags": []string{"t1", "t2"}})
		create(t, e, obj{"name": "tagged one/child", "tags": []string{"child"}, "system_tags": []string{"hidden"}})
		p2 := create(t, e, obj{"name": "tagged two", "tags": []string{"t3"}})
		e.Call(t, "tasks.create", obj{"name": "task tag", "type": "training", "project": p2, "tags": []string{"of a task"}}).OK(t)
		cases := []struct {
			name      string
			body      obj
			tags, sys string
		}{
			{"all", obj{}, `["child","t1","t2","t3"]`, `[]`},
			{"one with its child", obj{"projects": []string{p1}}, `["child","t1","t2"]`, `[]`},
			{"system tags", obj{"projects": []string{p1}, "include_system": true}, `["child","t1","t2"]`, `["hidden"]`},
			{"filter", obj{"filter": obj{"system_tags": []string{"__$not", "hidden"}}}, `["t1","t2","t3"]`, `[]`},
			{"unknown project", obj{"projects": []string{"nope"}}, `[]`, `[]`},
		}
		for _, c := range cases {
			r := e.Call(t, "projects.get_project_tags", c.body).OK(t)
			if asJSON(r.Data["tags"]) != c.tags || asJSON(r.Data["system_tags"]) != c.sys {
				t.Errorf("%s: %s", c.name, r.Raw)
			}
		}
		if r := e.Call(t, "projects.get_project_tags", obj{"projects": "x"}).Err(t, 400, 12); !strings.Contains(r.Msg(), "projects") {
			t.Errorf("projects not a list: %s", r.Msg())
		}
		if r := e.Call(t, "projects.get_project_tags", obj{"filter": "x"}).Err(t, 400, 12); !strings.Contains(r.Msg(), "filter") {
			t.Errorf("filter not an object: %s", r.Msg())
		}
		// Another company sees none of them.
		tok := e.Login(t, otherUser.AccessKey, otherUser.SecretKey)
		if r := e.CallAs(t, tok, "projects.get_project_tags", obj{}).OK(t); len(r.List("tags")) != 0 {
			t.Fatalf("other company: %s", r.Raw)
		}
	}, testenv.WithUsers(otherUser))
}

// The metadata keys and values of models: of a project with its
// subprojects, of all models, or of those without a project.
func TestModelMetadataKeysAndValues(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		md := func(kv ...string) obj {
			o := obj{}
			for i := 0; i < len(kv); i += 2 {
				o[kv[i]] = obj{"key": kv[i], "type": "str", "value": kv[i+1]}
			}
			return o
		}
		p := create(t, e, obj{"name": "meta parent"})
		child := create(t, e, obj{"name": "meta parent/child"})
		model := func(name, project string, metadata obj) {
			body := obj{"name": name, "uri": "file:///m", "metadata": metadata}
			if project != "" {
				body["project"] = project
			}
			e.Call(t, "models.create", body).OK(t)
		}
		model("root model", "", md("k_root", "r"))
		model("parent model", p, md("k", "10", "k2", "x"))
		model("child model", child, md("k", "9"))
		model("child model 2", child, md("k", "abc"))
		keys := []struct {
			name string
			body obj
			want string
			tot  float64
		}{
			{"all", obj{}, `["k","k2","k_root"]`, 3},
			{"root only", obj{"include_subprojects": false}, `["k_root"]`, 1},
			{"project with children", obj{"project": p}, `["k","k2"]`, 2},
			{"child", obj{"project": child}, `["k"]`, 1},
			{"paged", obj{"page": 1, "page_size": 2}, `["k_root"]`, 3},
		}
		for _, c := range keys {
			r := e.Call(t, "projects.get_model_metadata_keys", c.body).OK(t)
			if asJSON(r.Data["keys"]) != c.want || r.Num("total") != c.tot {
				t.Errorf("keys %s: %s", c.name, r.Raw)
			}
		}
		if r := e.Call(t, "projects.get_model_metadata_keys", obj{"page": 0, "page_size": 2}).OK(t); r.Num("remaining") != 1 {
			t.Errorf("remaining: %s", r.Raw)
		}
		values := []struct {
			name string
			body obj
			want string
		}{
			{"all, numbers first", obj{"key": "k"}, `["9","10","abc"]`},
			{"one project, no children", obj{"key": "k", "projects": []string{p}, "include_subprojects": false}, `["10"]`},
			{"root only", obj{"key": "k_root", "include_subprojects": false}, `["r"]`},
			{"unknown key", obj{"key": "none"}, `[]`},
		}
		for _, c := range values {
			r := e.Call(t, "projects.get_model_metadata_values", c.body).OK(t)
			if asJSON(r.Data["values"]) != c.want {
				t.Errorf("values %s: %s", c.name, r.Raw)
			}
		}
		bad := []struct {
			op    string
			body  obj
			field string
		}{
			{"projects.get_model_metadata_values", obj{}, "key"},
			{"projects.get_model_metadata_values", obj{"key": "k", "page": -1}, "page"},
			{"projects.get_model_metadata_keys", obj{"page_size": 0}, "page_size"},
			{"projects.get_model_metadata_keys", obj{"project": 5}, "project"},
		}
		for _, c := range bad {
			if r := e.Call(t, c.op, c.body).Err(t, 400, 12); !strings.Contains(r.Msg(), c.field) {
				t.Errorf("%s %v: %q does not name %s", c.op, c.body, r.Msg(), c.field)
			}
		}
		tok := e.Login(t, otherUser.AccessKey, otherUser.SecretKey)
		if r := e.CallAs(t, tok, "projects.get_model_metadata_keys", obj{}).OK(t); len(r.List("keys")) != 0 {
			t.Fatalf("other company keys: %s", r.Raw)
		}
		if r := e.CallAs(t, tok, "projects.get_model_metadata_values", obj{"key": "k"}).OK(t); len(r.List("values")) != 0 {
			t.Fatalf("other company values: %s", r.Raw)
		}
	}, testenv.WithUsers(otherUser))
}
