package projects_test

import (
	"sort"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/testenv"
)

// otherUser is a user of a second company, for isolation tests.
var otherUser = auth.FixedUser{ID: "other-user", Name: "other", AccessKey: "OTHERKEY000000000000", SecretKey: "other-secret-000000000000000000", Role: "user", Company: "other-company"}

func create(t *testing.T, e *testenv.Env, body map[string]any) string {
	t.Helper()
	return e.Call(t, "projects.create", body).OK(t).Str("id")
}

func names(r *testenv.Response, key string) []string {
	var out []string
	for _, it := range r.List(key) {
		out = append(out, it.(map[string]any)["name"].(string))
	}
	sort.Strings(out)
	return out
}

func TestCreateAndHierarchy(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		id := create(t, e, map[string]any{"name": " alpha / beta //gamma/ ", "description": "d", "tags": []string{"b", "a"}})
		p := e.Call(t, "projects.get_by_id", map[string]any{"project": id}).OK(t)
		if p.Str("project.name") != "alpha/beta/gamma" || p.Str("project.basename") != "gamma" || p.Str("project.description") != "d" {
			t.Fatalf("bad project %s", p.Raw)
		}
		if got := p.List("project.tags"); len(got) != 2 || got[0] != "a" {
			t.Fatalf("tags not sorted: %v", got)
		}
		if len(p.List("project.path")) != 2 || p.Num("project.featured") != 9999 {
			t.Fatalf("bad path/featured: %s", p.Raw)
		}
		parent := p.Str("project.parent")
		pp := e.Call(t, "projects.get_by_id", map[string]any{"project": parent}).OK(t)
		if pp.Str("project.name") != "alpha/beta" {
			t.Fatalf("ancestor not created: %s", pp.Raw)
		}
		// Errors.
		e.Call(t, "projects.create", map[string]any{"name": "alpha/beta/gamma"}).Err(t, 400, 801)
		e.Call(t, "projects.create", map[string]any{"name": "//"}).Err(t, 400, 407)
		e.Call(t, "projects.create", map[string]any{"name": "ab"}).Err(t, 400, 800)
		e.Call(t, "projects.create", map[string]any{"name": "a/b/c/d/e/f/g/h/i/j/k"}).Err(t, 400, 409)
		e.Call(t, "projects.create", map[string]any{"name": "okay", "tags": []string{"__$all"}}).Err(t, 400, 16)
		e.Call(t, "projects.create", map[string]any{"name": "okay", "tags": "notalist"}).Err(t, 400, 12)
		e.Call(t, "projects.get_by_id", map[string]any{}).Err(t, 400, 12)

		// get_all: hierarchy filters.
		all := e.Call(t, "projects.get_all", map[string]any{"only_fields": []string{"name"}}).OK(t)
		if got := names(all, "projects"); len(got) != 3 {
			t.Fatalf("want 3 projects, got %v", got)
		}
		top := e.Call(t, "projects.get_all", map[string]any{"shallow_search": true}).OK(t)
		if got := names(top, "projects"); len(got) != 1 || got[0] != "alpha" {
			t.Fatalf("shallow top level: %v", got)
		}
		rootID := top.Str("projects.0.id")
		desc := e.Call(t, "projects.get_all", map[string]any{"parent": []string{rootID}}).OK(t)
		if got := names(desc, "projects"); len(got) != 2 {
			t.Fatalf("descendants: %v", got)
		}
		children := e.Call(t, "projects.get_all", map[string]any{"parent": []string{rootID}, "shallow_search": true}).OK(t)
		if got := names(children, "projects"); len(got) != 1 || got[0] != "alpha/beta" {
			t.Fatalf("direct children: %v", got)
		}
		// get_all hides path; get_by_id shows it.
		if _, ok := testenv.Get(desc.Data, "projects.0.path").([]any); ok {
			t.Fatalf("path must be hidden in get_all: %s", desc.Raw)
		}
	})
}

func TestListQueries(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		create(t, e, map[string]any{"name": "proj-one", "tags": []string{"red", "big"}, "description": "first"})
		create(t, e, map[string]any{"name": "proj-two", "tags": []string{"red"}, "description": "second"})
		create(t, e, map[string]any{"name": "proj-three", "tags": []string{"blue"}, "system_tags": []string{"archived"}})
		create(t, e, map[string]any{"name": "hidden-one", "system_tags": []string{"hidden"}})
		cases := []struct {
			name string
			body map[string]any
			want []string
		}{
			{"all visible", map[string]any{}, []string{"proj-one", "proj-three", "proj-two"}},
			{"search hidden", map[string]any{"search_hidden": true}, []string{"hidden-one", "proj-one", "proj-three", "proj-two"}},
			{"name regex", map[string]any{"name": "^proj-t"}, []string{"proj-three", "proj-two"}},
			{"escaped name", map[string]any{"name": `^proj\-one$`}, []string{"proj-one"}},
			{"name case-sensitive", map[string]any{"name": "PROJ"}, nil},
			{"description regex", map[string]any{"description": "sec"}, []string{"proj-two"}},
			{"tag any", map[string]any{"tags": []string{"big", "blue"}}, []string{"proj-one", "proj-three"}},
			{"tag exclude", map[string]any{"tags": []string{"-red"}}, []string{"proj-three"}},
			{"tag include and exclude", map[string]any{"tags": []string{"red", "-big"}}, []string{"proj-two"}},
			{"tag all", map[string]any{"tags": []string{"__$all", "red", "big"}}, []string{"proj-one"}},
			{"tag not", map[string]any{"tags": []string{"__$not", "red"}}, []string{"proj-three"}},
			{"seed __Snot", map[string]any{"tags": []string{"__Snot", "red"}}, []string{"proj-three"}},
			{"any or not", map[string]any{"tags": []string{"__$any", "__$not", "red", "big"}}, []string{"proj-one", "proj-three"}},
			{"system tag exclude", map[string]any{"system_tags": []string{"-archived"}}, []string{"proj-one", "proj-two"}},
			{"null means no tags", map[string]any{"tags": []any{nil}}, nil},
			{"_any_ pattern", map[string]any{"_any_": map[string]any{"fields": []string{"name", "description"}, "pattern": "FIRST"}}, []string{"proj-one"}},
			{"seed any spelling", map[string]any{"any": map[string]any{"fields": []string{"description"}, "pattern": "second"}}, []string{"proj-two"}},
			{"_all_ pattern", map[string]any{"_all_": map[string]any{"fields": []string{"name", "description"}, "pattern": "o"}}, []string{"proj-two"}},
			{"search text", map[string]any{"search_text": "second"}, []string{"proj-two"}},
			{"id filter", map[string]any{"id": []string{"nope"}}, nil},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				r := e.Call(t, "projects.get_all", tc.body).OK(t)
				got := names(r, "projects")
				if len(got) != len(tc.want) {
					t.Fatalf("got %v want %v", got, tc.want)
				}
				for i := range got {
					if got[i] != tc.want[i] {
						t.Fatalf("got %v want %v", got, tc.want)
					}
				}
			})
		}
		// filters of get_all_ex.
		r := e.Call(t, "projects.get_all_ex", map[string]any{"filters": map[string]any{"tags": map[string]any{
			"all": map[string]any{"include": []string{"red"}, "exclude": []string{"big"}}}}}).OK(t)
		if got := names(r, "projects"); len(got) != 1 || got[0] != "proj-two" {
			t.Fatalf("filters: %v", got)
		}
		// Ordering, paging, projection.
		r = e.Call(t, "projects.get_all", map[string]any{"order_by": []string{"-name"}, "page": 0, "page_size": 2, "only_fields": []string{"name"}}).OK(t)
		if r.Str("projects.0.name") != "proj-two" || len(r.List("projects")) != 2 {
			t.Fatalf("order/page: %s", r.Raw)
		}
		item := r.List("projects")[0].(map[string]any)
		if len(item) != 2 || item["id"] == nil {
			t.Fatalf("projection must give name and id only: %v", item)
		}
		r = e.Call(t, "projects.get_all", map[string]any{"order_by": []string{"-name"}, "page": 1, "page_size": 2}).OK(t)
		if r.Str("projects.0.name") != "proj-one" {
			t.Fatalf("page 1: %s", r.Raw)
		}
		r = e.Call(t, "projects.get_all", map[string]any{"order_by": "name", "only_fields": []string{"-description", "-tags"}}).OK(t)
		if first := r.List("projects")[0].(map[string]any); first["description"] != nil || first["tags"] != nil || first["name"] != "proj-one" {
			t.Fatalf("exclusion projection: %v", first)
		}
		// Scroll.
		r = e.Call(t, "projects.get_all", map[string]any{"scroll_id": nil, "size": 2, "order_by": []string{"name"}}).OK(t)
		sid := r.Str("scroll_id")
		if sid == "" || len(r.List("projects")) != 2 {
			t.Fatalf("scroll start: %s", r.Raw)
		}
		r = e.Call(t, "projects.get_all", map[string]any{"scroll_id": sid, "size": 2, "order_by": []string{"name"}}).OK(t)
		if got := names(r, "projects"); len(got) != 1 || got[0] != "proj-two" || r.Str("scroll_id") != sid {
			t.Fatalf("scroll next: %s", r.Raw)
		}
		r = e.Call(t, "projects.get_all", map[string]any{"scroll_id": sid, "size": 2}).OK(t)
		if len(r.List("projects")) != 0 {
			t.Fatalf("exhausted scroll must be empty: %s", r.Raw)
		}
		r = e.Call(t, "projects.get_all", map[string]any{"scroll_id": sid, "size": 1, "refresh_scroll": true, "order_by": []string{"name"}}).OK(t)
		if len(r.List("projects")) != 3 {
			t.Fatalf("refresh scroll re-reads to the position: %s", r.Raw)
		}
		// *_ex returns references as objects.
		child := create(t, e, map[string]any{"name": "proj-one/kid"})
		r = e.Call(t, "projects.get_all_ex", map[string]any{"id": []string{child}, "only_fields": []string{"name", "parent.name", "company"}}).OK(t)
		if r.Str("projects.0.parent.name") != "proj-one" || r.Str("projects.0.parent.id") == "" || r.Str("projects.0.company.id") == "" {
			t.Fatalf("ex references: %s", r.Raw)
		}
		r = e.Call(t, "projects.get_all", map[string]any{"id": []string{child}}).OK(t)
		if _, ok := testenv.Get(r.Data, "projects.0.parent").(string); !ok {
			t.Fatalf("plain get_all returns string references: %s", r.Raw)
		}
	})
}

func TestUpdateMoveMerge(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		a := create(t, e, map[string]any{"name": "team/alpha"})
		kid := create(t, e, map[string]any{"name": "team/alpha/kid"})
		other := create(t, e, map[string]any{"name": "elsewhere"})
		// Rename keeps the parent path; descendants follow.
		r := e.Call(t, "projects.update", map[string]any{"project": a, "name": "team/omega", "description": "x"}).OK(t)
		if r.Num("updated") != 1 || testenv.Get(r.Data, "fields.name") != "team/omega" {
			t.Fatalf("update: %s", r.Raw)
		}
		if n := e.Call(t, "projects.get_by_id", map[string]any{"project": kid}).OK(t).Str("project.name"); n != "team/omega/kid" {
			t.Fatalf("descendant not renamed: %s", n)
		}
		e.Call(t, "projects.update", map[string]any{"project": a, "name": "other/omega"}).Err(t, 400, 408)
		e.Call(t, "projects.update", map[string]any{"project": "missing"}).Err(t, 400, 401)
		e.Call(t, "projects.update", map[string]any{"project": a, "name": "elsewhere"}).Err(t, 400, 408)
		// Renames need a last segment of 3 characters or more, and a name.
		for _, c := range []struct {
			name          string
			code, subcode int
		}{
			{"team/om", 400, 12},
			{"team/ om ", 400, 12},
			{"team/é", 400, 12},
			{"", 400, 407},
			{"   ", 400, 407},
			{" / ", 400, 407},
		} {
			e.Call(t, "projects.update", map[string]any{"project": a, "name": c.name}).Err(t, c.code, c.subcode)
		}
		if n := e.Call(t, "projects.get_by_id", map[string]any{"project": a}).OK(t).Str("project.name"); n != "team/omega" {
			t.Fatalf("refused renames changed the name: %s", n)
		}
		e.Call(t, "projects.update", map[string]any{"project": a, "name": "team/ome"}).OK(t)
		e.Call(t, "projects.update", map[string]any{"project": a, "name": "team/omega"}).OK(t)
		// Move.
		r = e.Call(t, "projects.move", map[string]any{"project": a, "new_location": "elsewhere"}).OK(t)
		if r.Num("moved") != 2 {
			t.Fatalf("move: %s", r.Raw)
		}
		kp := e.Call(t, "projects.get_by_id", map[string]any{"project": kid}).OK(t)
		if kp.Str("project.name") != "elsewhere/omega/kid" || len(kp.List("project.path")) != 2 {
			t.Fatalf("moved descendant: %s", kp.Raw)
		}
		e.Call(t, "projects.move", map[string]any{"project": a, "new_location": "elsewhere"}).Err(t, 400, 410)
		e.Call(t, "projects.move", map[string]any{"project": a, "new_location": "elsewhere/omega/kid"}).Err(t, 400, 411)
		// Merge omega into a new destination.
		dst := create(t, e, map[string]any{"name": "target"})
		e.Call(t, "projects.merge", map[string]any{"project": a, "destination_project": kid}).Err(t, 400, 412)
		e.Call(t, "projects.merge", map[string]any{"project": a, "destination_project": a}).Err(t, 400, 410)
		r = e.Call(t, "projects.merge", map[string]any{"project": a, "destination_project": dst}).OK(t)
		if r.Num("moved_projects") != 1 || r.Num("moved_entities") != 0 {
			t.Fatalf("merge: %s", r.Raw)
		}
		e.Call(t, "projects.get_by_id", map[string]any{"project": a}).Err(t, 400, 401)
		if n := e.Call(t, "projects.get_by_id", map[string]any{"project": kid}).OK(t).Str("project.name"); n != "target/kid" {
			t.Fatalf("merged child: %s", n)
		}
		_ = other
	})
}

func TestDeleteAndStats(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		p := create(t, e, map[string]any{"name": "delete-me"})
		create(t, e, map[string]any{"name": "delete-me/child"})
		r := e.Call(t, "projects.validate_delete", map[string]any{"project": p}).OK(t)
		if r.Num("tasks") != 0 || r.Num("models") != 0 {
			t.Fatalf("validate_delete: %s", r.Raw)
		}
		r = e.Call(t, "projects.get_all_ex", map[string]any{"id": []string{p}, "include_stats": true, "check_own_contents": true}).OK(t)
		if testenv.Get(r.Data, "projects.0.stats.active.total_tasks") != 0.0 ||
			testenv.Get(r.Data, "projects.0.stats.active.status_count.created") != 0.0 ||
			testenv.Get(r.Data, "projects.0.own_tasks") != 0.0 ||
			len(r.List("projects.0.sub_projects")) != 1 {
			t.Fatalf("stats: %s", r.Raw)
		}
		if _, ok := testenv.Get(r.Data, "projects.0.stats.archived").(map[string]any); ok {
			t.Fatalf("archived stats only when asked: %s", r.Raw)
		}
		r = e.Call(t, "projects.get_all_ex", map[string]any{"id": []string{p}, "include_stats": true, "stats_for_state": nil}).OK(t)
		if _, ok := testenv.Get(r.Data, "projects.0.stats.archived").(map[string]any); !ok {
			t.Fatalf("null stats_for_state gives both: %s", r.Raw)
		}
		e.Call(t, "projects.get_all_ex", map[string]any{"stats_for_state": "bogus"}).Err(t, 400, 12)
		r = e.Call(t, "projects.delete", map[string]any{"project": p}).OK(t)
		if r.Num("deleted") != 2 {
			t.Fatalf("delete with descendants: %s", r.Raw)
		}
		e.Call(t, "projects.delete", map[string]any{"project": p}).Err(t, 400, 401)
		e.Call(t, "projects.delete", map[string]any{}).Err(t, 400, 12)
	})
}

func TestPublicAndCompanies(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		otherTok := e.Login(t, otherUser.AccessKey, otherUser.SecretKey)
		mine := create(t, e, map[string]any{"name": "shared-project"})
		// Another company cannot see it.
		e.CallAs(t, otherTok, "projects.get_by_id", map[string]any{"project": mine}).Err(t, 400, 401)
		if n := len(e.CallAs(t, otherTok, "projects.get_all", nil).OK(t).List("projects")); n != 0 {
			t.Fatalf("other company sees %d projects", n)
		}
		// Same name in another company is fine.
		e.CallAs(t, otherTok, "projects.create", map[string]any{"name": "shared-project"}).OK(t)
		// Public: readable by all, writable by none.
		e.CallAs(t, otherTok, "projects.make_public", map[string]any{"ids": []string{mine}}).Err(t, 400, 401)
		if e.Call(t, "projects.make_public", map[string]any{"ids": []string{mine}}).OK(t).Num("updated") != 1 {
			t.Fatal("make_public")
		}
		e.CallAs(t, otherTok, "projects.get_by_id", map[string]any{"project": mine}).OK(t)
		e.CallAs(t, otherTok, "projects.update", map[string]any{"project": mine, "description": "x"}).Err(t, 403, 21)
		e.Call(t, "projects.update", map[string]any{"project": mine, "description": "x"}).Err(t, 403, 21)
		e.CallAs(t, otherTok, "projects.make_private", map[string]any{"ids": []string{mine}}).Err(t, 400, 401)
		if e.Call(t, "projects.make_private", map[string]any{"ids": []string{mine}}).OK(t).Num("updated") != 1 {
			t.Fatal("make_private")
		}
		e.CallAs(t, otherTok, "projects.get_by_id", map[string]any{"project": mine}).Err(t, 400, 401)
		// Tags of tasks/models: none yet.
		r := e.Call(t, "projects.get_task_tags", map[string]any{"include_system": true}).OK(t)
		if len(r.List("tags")) != 0 {
			t.Fatalf("task tags: %s", r.Raw)
		}
		e.Call(t, "projects.get_model_tags", map[string]any{"filter": map[string]any{"tags": []string{"__$bogus"}}}).Err(t, 400, 16)
	}, testenv.WithUsers(otherUser))
}
