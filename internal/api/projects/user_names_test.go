package projects_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/testenv"
)

// projects.get_user_names names the creators of the tasks (or models) of
// projects, with their subprojects unless include_subprojects is false,
// sorted by name; other companies' users never appear.
func TestGetUserNames(t *testing.T) {
	zed := auth.FixedUser{ID: "zed-id", Name: "zed", AccessKey: "ZEDKEY", SecretKey: "zed-secret"}
	amy := auth.FixedUser{ID: "amy-id", Name: "amy", AccessKey: "AMYKEY", SecretKey: "amy-secret"}
	out := auth.FixedUser{ID: "out-id", Name: "outsider", AccessKey: "OUTKEY", SecretKey: "out-secret", Company: "other-co"}
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		zedTok, amyTok, outTok := e.Login(t, zed.AccessKey, zed.SecretKey), e.Login(t, amy.AccessKey, amy.SecretKey), e.Login(t, out.AccessKey, out.SecretKey)
		parent := e.Call(t, "projects.create", map[string]any{"name": "names", "description": ""}).OK(t).Str("id")
		child := e.Call(t, "projects.create", map[string]any{"name": "names/child", "description": ""}).OK(t).Str("id")
		e.CallAs(t, zedTok, "tasks.create", map[string]any{"name": "zed task", "type": "testing", "project": parent}).OK(t)
		e.CallAs(t, amyTok, "tasks.create", map[string]any{"name": "amy task", "type": "testing", "project": child}).OK(t)
		e.CallAs(t, amyTok, "models.create", map[string]any{"name": "amy model", "uri": "file:///m", "project": parent}).OK(t)
		e.CallAs(t, outTok, "tasks.create", map[string]any{"name": "out task", "type": "testing"}).OK(t)
		empty := e.Call(t, "projects.create", map[string]any{"name": "empty", "description": ""}).OK(t).Str("id")
		for _, c := range []struct {
			name string
			body map[string]any
			want string
		}{
			{"with subprojects", map[string]any{"projects": []string{parent}}, `[{"id":"amy-id","name":"amy"},{"id":"zed-id","name":"zed"}]`},
			{"without subprojects", map[string]any{"projects": []string{parent}, "include_subprojects": false}, `[{"id":"zed-id","name":"zed"}]`},
			{"the child", map[string]any{"projects": []string{child}}, `[{"id":"amy-id","name":"amy"}]`},
			{"models", map[string]any{"projects": []string{parent}, "entity": "model"}, `[{"id":"amy-id","name":"amy"}]`},
			{"every project", map[string]any{}, `[{"id":"amy-id","name":"amy"},{"id":"zed-id","name":"zed"}]`},
			{"an empty project", map[string]any{"projects": []string{empty}}, `[]`},
			{"an unknown project", map[string]any{"projects": []string{"nosuch"}}, `[]`},
		} {
			t.Run(c.name, func(t *testing.T) {
				r := e.Call(t, "projects.get_user_names", c.body).OK(t)
				if got := asJSON(r.Data["users"]); got != c.want {
					t.Fatalf("got %s, want %s", got, c.want)
				}
			})
		}
		if got := asJSON(e.CallAs(t, outTok, "projects.get_user_names", nil).OK(t).Data["users"]); got != `[{"id":"out-id","name":"outsider"}]` {
			t.Fatalf("the other company: %s", got)
		}
		for _, c := range []struct {
			name string
			body map[string]any
		}{
			{"unknown entity", map[string]any{"entity": "dataset"}},
			{"projects not a list", map[string]any{"projects": "p"}},
			{"include_subprojects not a boolean", map[string]any{"include_subprojects": "yes"}},
		} {
			t.Run(c.name, func(t *testing.T) {
				e.Call(t, "projects.get_user_names", c.body).Err(t, 400, 12)
			})
		}
		// The owners follow a merge (read from the facets the move carries).
		e.Call(t, "projects.merge", map[string]any{"project": child, "destination_project": empty}).OK(t)
		for _, c := range []struct {
			name string
			body map[string]any
			want string
		}{
			{"the merge's destination", map[string]any{"projects": []string{empty}}, `[{"id":"amy-id","name":"amy"}]`},
			{"the merged child's parent", map[string]any{"projects": []string{parent}}, `[{"id":"zed-id","name":"zed"}]`},
			{"every project after the merge", map[string]any{}, `[{"id":"amy-id","name":"amy"},{"id":"zed-id","name":"zed"}]`},
		} {
			t.Run(c.name, func(t *testing.T) {
				r := e.Call(t, "projects.get_user_names", c.body).OK(t)
				if got := asJSON(r.Data["users"]); got != c.want {
					t.Fatalf("got %s, want %s", got, c.want)
				}
			})
		}
	}, testenv.WithUsers(zed, amy, out))
}
