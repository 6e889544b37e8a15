package users_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/testenv"
)

// Two users of the default company and one of another company.
var (
	alice = auth.FixedUser{ID: "alice-id", Name: "alice", AccessKey: "ALICEKEY", SecretKey: "alice-secret"}
	bob   = auth.FixedUser{ID: "bob-id", Name: "bob", AccessKey: "BOBKEY", SecretKey: "bob-secret"}
	eve   = auth.FixedUser{ID: "eve-id", Name: "eve", AccessKey: "EVEKEY", SecretKey: "eve-secret", Company: "other-co"}
)

func withUsers() testenv.Option { return testenv.WithUsers(alice, bob, eve) }

func basicAuth(key, secret string) func(http.Header) {
	return func(h http.Header) {
		h.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(key+":"+secret)))
	}
}

func asJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func ids(list []any) []string {
	out := []string{}
	for _, it := range list {
		out = append(out, it.(map[string]any)["id"].(string))
	}
	return out
}

func TestCurrentUser(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		tok := e.Login(t, alice.AccessKey, alice.SecretKey)
		r := e.CallAs(t, tok, "users.get_current_user", nil).OK(t)
		if r.Str("user.id") != "alice-id" || r.Str("user.name") != "alice" || r.Str("user.role") != "user" ||
			r.Str("user.company.id") != auth.DefaultCompanyID || r.Str("user.company.name") != auth.DefaultCompanyName || r.Str("user.created") == "" ||
			r.Str("user.created_in_version") != auth.ServerVersion {
			t.Fatalf("user: %s", r.Raw)
		}
		for _, k := range []string{"agentName", "configure", "install", "packageName"} {
			if r.Str("getting_started."+k) == "" {
				t.Fatalf("getting_started.%s: %s", k, r.Raw)
			}
		}
		if r.Num("settings.max_download_items") <= 0 {
			t.Fatalf("settings: %s", r.Raw)
		}
		// Without credentials: 401.
		e.CallAs(t, "", "users.get_current_user", nil).Err(t, 401, 20)
	}, withUsers())
}

func TestGetByID(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		tok := e.Login(t, alice.AccessKey, alice.SecretKey)
		r := e.CallAs(t, tok, "users.get_by_id", map[string]any{"user": "bob-id"}).OK(t)
		if r.Str("user.id") != "bob-id" || r.Str("user.name") != "bob" || r.Str("user.company") != auth.DefaultCompanyID {
			t.Fatalf("bob: %s", r.Raw)
		}
		for _, c := range []struct {
			name          string
			body          any
			code, subcode int
		}{
			{"missing user", map[string]any{}, 400, 12},
			{"user not a string", map[string]any{"user": 5}, 400, 12},
			{"unknown user", map[string]any{"user": "nobody"}, 400, 301},
			{"user of another company", map[string]any{"user": "eve-id"}, 400, 301},
		} {
			t.Run(c.name, func(t *testing.T) {
				e.CallAs(t, tok, "users.get_by_id", c.body).Err(t, c.code, c.subcode)
			})
		}
	}, withUsers())
}

func TestGetAllIsScopedToTheCompany(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		tok := e.Login(t, alice.AccessKey, alice.SecretKey)
		r := e.CallAs(t, tok, "users.get_all", map[string]any{"order_by": []string{"name"}}).OK(t)
		if got := asJSON(ids(r.List("users"))); got != `["__admin__","alice-id","bob-id"]` {
			t.Fatalf("users of the default company: %s", got)
		}
		if c, _ := testenv.Get(r.Data, "users.0.company").(string); c != auth.DefaultCompanyID {
			t.Fatalf("get_all names the company by id: %s", r.Raw)
		}
		// Role and email are listed only when asked for.
		if _, ok := testenv.Get(r.Data, "users.1").(map[string]any)["role"]; ok {
			t.Fatalf("role listed by default: %s", r.Raw)
		}
		r = e.CallAs(t, tok, "users.get_all", map[string]any{"id": []string{"alice-id"}, "only_fields": []string{"role"}}).OK(t)
		if asJSON(r.List("users")) != `[{"id":"alice-id","role":"user"}]` {
			t.Fatalf("only_fields role: %s", r.Raw)
		}
		r = e.CallAs(t, tok, "users.get_all", map[string]any{"name": "^b", "only_fields": []string{"name"}}).OK(t)
		if asJSON(r.List("users")) != `[{"id":"bob-id","name":"bob"}]` {
			t.Fatalf("name pattern: %s", r.Raw)
		}
		r = e.CallAs(t, tok, "users.get_all_ex", map[string]any{"id": []string{"bob-id", "eve-id"}}).OK(t)
		if asJSON(ids(r.List("users"))) != `["bob-id"]` || testenv.Get(r.Data, "users.0.company.id") != auth.DefaultCompanyID {
			t.Fatalf("get_all_ex by id: %s", r.Raw)
		}
		eveTok := e.Login(t, eve.AccessKey, eve.SecretKey)
		r = e.CallAs(t, eveTok, "users.get_all", nil).OK(t)
		if asJSON(ids(r.List("users"))) != `["eve-id"]` {
			t.Fatalf("eve sees: %s", r.Raw)
		}
		for _, c := range []struct {
			name          string
			body          any
			code, subcode int
		}{
			{"bad regex", map[string]any{"name": "("}, 400, 21},
			{"unknown order field", map[string]any{"order_by": []string{"nosuch"}}, 400, 14},
			{"negative page", map[string]any{"page": -1, "page_size": 10}, 400, 12},
			{"active_in_projects not a list", map[string]any{"active_in_projects": "p"}, 400, 12},
		} {
			t.Run(c.name, func(t *testing.T) {
				ep := "users.get_all"
				if c.name == "active_in_projects not a list" {
					ep = "users.get_all_ex"
				}
				e.CallAs(t, tok, ep, c.body).Err(t, c.code, c.subcode)
			})
		}
	}, withUsers())
}

// The reference's test_active_users: users.get_all_ex with
// active_in_projects keeps the users owning projects, tasks or models in
// those projects (and their subprojects), or anywhere for an empty list.
func TestActiveInProjects(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		aliceTok := e.Login(t, alice.AccessKey, alice.SecretKey)
		bobTok := e.Login(t, bob.AccessKey, bob.SecretKey)
		parent := e.Call(t, "projects.create", map[string]any{"name": "act", "description": ""}).OK(t).Str("id")
		child := e.Call(t, "projects.create", map[string]any{"name": "act/child", "description": ""}).OK(t).Str("id")
		other := e.Call(t, "projects.create", map[string]any{"name": "other", "description": ""}).OK(t).Str("id")
		e.CallAs(t, bobTok, "tasks.create", map[string]any{"name": "task", "type": "testing", "project": child}).OK(t)
		e.CallAs(t, aliceTok, "models.create", map[string]any{"name": "model", "uri": "file:///m", "project": other}).OK(t)
		users := []string{"alice-id", "bob-id"}
		for _, c := range []struct {
			name     string
			projects any
			want     string
		}{
			{"no filter", nil, `["alice-id","bob-id"]`},
			{"any project", []string{}, `["alice-id","bob-id"]`},
			{"parent with its subprojects", []string{parent}, `["bob-id"]`},
			{"the model's project", []string{other}, `["alice-id"]`},
			{"unknown project", []string{"nosuch"}, `[]`},
		} {
			t.Run(c.name, func(t *testing.T) {
				body := map[string]any{"id": users, "order_by": []string{"id"}}
				if c.projects != nil {
					body["active_in_projects"] = c.projects
				}
				r := e.Call(t, "users.get_all_ex", body).OK(t)
				if got := asJSON(ids(r.List("users"))); got != c.want {
					t.Fatalf("got %s, want %s", got, c.want)
				}
			})
		}
	}, withUsers())
}

func TestUpdate(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		tok := e.Login(t, alice.AccessKey, alice.SecretKey)
		r := e.CallAs(t, tok, "users.update", map[string]any{"user": "alice-id", "given_name": "Alice", "family_name": "Liddell"}).OK(t)
		if r.Num("updated") != 1 || asJSON(r.Data["fields"]) != `{"family_name":"Liddell","given_name":"Alice"}` {
			t.Fatalf("update: %s", r.Raw)
		}
		r = e.CallAs(t, tok, "users.update", map[string]any{"user": "alice-id", "given_name": "Alice"}).OK(t)
		if r.Num("updated") != 0 {
			t.Fatalf("unchanged update: %s", r.Raw)
		}
		r = e.CallAs(t, tok, "users.get_current_user", nil).OK(t)
		if r.Str("user.given_name") != "Alice" || r.Str("user.family_name") != "Liddell" {
			t.Fatalf("after update: %s", r.Raw)
		}
		// An admin may change another user of its company.
		e.Call(t, "users.update", map[string]any{"user": "bob-id", "name": "Robert"}).OK(t)
		if e.Call(t, "users.get_by_id", map[string]any{"user": "bob-id"}).OK(t).Str("user.name") != "Robert" {
			t.Fatal("admin rename not stored")
		}
		for _, c := range []struct {
			name          string
			token         string
			body          any
			code, subcode int
		}{
			{"missing user", tok, map[string]any{"name": "x"}, 400, 12},
			{"empty name", tok, map[string]any{"user": "alice-id", "name": ""}, 400, 12},
			{"another user", tok, map[string]any{"user": "bob-id", "name": "x"}, 400, 301},
			{"admin, user of another company", e.Token, map[string]any{"user": "eve-id", "name": "x"}, 400, 301},
			{"unknown user", e.Token, map[string]any{"user": "nobody", "name": "x"}, 400, 301},
		} {
			t.Run(c.name, func(t *testing.T) {
				e.CallAs(t, c.token, "users.update", c.body).Err(t, c.code, c.subcode)
			})
		}
	}, withUsers())
}

// users.delete is the system and root roles' only, as in the reference.
func TestDeleteNeedsASystemRole(t *testing.T) {
	root := auth.FixedUser{ID: "root-id", Name: "root", AccessKey: "ROOTKEY", SecretKey: "root-secret", Role: auth.RoleRoot}
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		e.Call(t, "users.delete", map[string]any{"user": "bob-id"}).Err(t, 403, 20)
		rootTok := e.Login(t, root.AccessKey, root.SecretKey)
		e.CallAs(t, rootTok, "users.delete", map[string]any{"user": "root-id"}).Err(t, 400, 16)
		e.CallAs(t, rootTok, "users.delete", map[string]any{}).Err(t, 400, 12)
		e.CallAs(t, rootTok, "users.delete", map[string]any{"user": "eve-id"}).Err(t, 400, 301)
		e.CallAs(t, rootTok, "users.delete", map[string]any{"user": "bob-id"}).OK(t)
		e.CallAs(t, rootTok, "users.delete", map[string]any{"user": "bob-id"}).Err(t, 400, 301)
		// Its keys went with it.
		e.Do(t, "auth.login", nil, basicAuth(bob.AccessKey, bob.SecretKey)).Err(t, 401, 22)
	}, withUsers(), testenv.WithUsers(root))
}
