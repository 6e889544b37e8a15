package system_test

import (
	"net/http"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/testenv"
)

func impersonate(tok, user string) func(http.Header) {
	return func(h http.Header) {
		h.Set("Authorization", "Bearer "+tok)
		h.Set("X-ClearML-Impersonate-As", user)
	}
}

// An admin creates a user, acts as it through the impersonation header
// (as the reference's suite and the app's simple login do) and changes its
// role.
func TestCreateUserImpersonateAndEdit(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		r := e.Call(t, "auth.create_user", map[string]any{"name": "carol", "company": auth.DefaultCompanyID,
			"email": "carol@example.com", "given_name": "Carol", "family_name": "C"}).OK(t)
		carol := r.Str("id")
		if carol == "" {
			t.Fatalf("create_user: %s", r.Raw)
		}
		r = e.Do(t, "users.get_current_user", nil, impersonate(e.Token, carol)).OK(t)
		if r.Str("user.id") != carol || r.Str("user.role") != "user" || r.Str("user.given_name") != "Carol" || r.Str("user.email") != "carol@example.com" {
			t.Fatalf("as carol: %s", r.Raw)
		}
		// What carol creates is hers.
		task := e.Do(t, "tasks.create", map[string]any{"name": "carol's", "type": "testing"}, impersonate(e.Token, carol)).OK(t).Str("id")
		if e.Call(t, "tasks.get_by_id", map[string]any{"task": task}).OK(t).Str("task.user") != carol {
			t.Fatal("the task is not carol's")
		}
		// A token minted while impersonating is carol's.
		tok := e.Do(t, "auth.login", nil, impersonate(e.Token, carol)).OK(t).Str("token")
		if e.CallAs(t, tok, "users.get_current_user", nil).OK(t).Str("user.id") != carol {
			t.Fatal("the impersonated login's token is not carol's")
		}
		// As carol (role user) she may not impersonate back.
		e.Do(t, "users.get_current_user", nil, impersonate(tok, auth.AdminUserID)).Err(t, 400, 6)

		r = e.Call(t, "auth.edit_user", map[string]any{"user": carol, "role": "admin"}).OK(t)
		if r.Num("updated") != 1 || testenv.Get(r.Data, "fields.role") != "admin" {
			t.Fatalf("edit_user: %s", r.Raw)
		}
		if e.Do(t, "users.get_current_user", nil, impersonate(e.Token, carol)).OK(t).Str("user.role") != "admin" {
			t.Fatal("role not changed")
		}
		if r := e.Call(t, "auth.edit_user", map[string]any{"user": carol, "role": "admin"}).OK(t); r.Num("updated") != 0 {
			t.Fatalf("unchanged edit_user: %s", r.Raw)
		}
	})
}

// Only system, root and admin may create or edit users and impersonate;
// an admin only inside its own company.
func TestUserAdministrationIsPrivileged(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		bobTok := e.Login(t, bob.AccessKey, bob.SecretKey)
		newUser := map[string]any{"name": "x", "company": auth.DefaultCompanyID, "email": "x@example.com"}
		e.CallAs(t, bobTok, "auth.create_user", newUser).Err(t, 403, 20)
		e.CallAs(t, bobTok, "auth.edit_user", map[string]any{"user": bob.ID, "role": "admin"}).Err(t, 403, 20)
		e.Do(t, "users.get_current_user", nil, impersonate(bobTok, auth.AdminUserID)).Err(t, 400, 6)
		// An admin stays in its company.
		e.Call(t, "auth.create_user", map[string]any{"name": "x", "company": "other-co", "email": "x@example.com"}).Err(t, 403, 20)
		e.Call(t, "auth.edit_user", map[string]any{"user": eve.ID, "role": "admin"}).Err(t, 400, 301)
		e.Do(t, "users.get_current_user", nil, impersonate(e.Token, eve.ID)).Err(t, 400, 6)
		e.Do(t, "users.get_current_user", nil, impersonate(e.Token, "nobody")).Err(t, 400, 6)
		// bob is still a user.
		if e.CallAs(t, bobTok, "users.get_current_user", nil).OK(t).Str("user.role") != "user" {
			t.Fatal("bob's role changed")
		}
	}, testenv.WithUsers(bob, eve))
}

func TestUserAdministrationBadInput(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		co := auth.DefaultCompanyID
		for _, c := range []struct {
			name, op      string
			body          any
			code, subcode int
		}{
			{"create without name", "auth.create_user", map[string]any{"company": co, "email": "a@b.c"}, 400, 12},
			{"create without company", "auth.create_user", map[string]any{"name": "n", "email": "a@b.c"}, 400, 12},
			{"create without email", "auth.create_user", map[string]any{"name": "n", "company": co}, 400, 12},
			{"create with a bad email", "auth.create_user", map[string]any{"name": "n", "company": co, "email": "not an email"}, 400, 12},
			{"create with an unknown role", "auth.create_user", map[string]any{"name": "n", "company": co, "email": "a@b.c", "role": "wizard"}, 400, 12},
			{"create name not a string", "auth.create_user", map[string]any{"name": 1, "company": co, "email": "a@b.c"}, 400, 12},
			{"edit without user", "auth.edit_user", map[string]any{"role": "user"}, 400, 12},
			{"edit to a system role", "auth.edit_user", map[string]any{"user": bob.ID, "role": "root"}, 403, 20},
			{"edit to an unknown role", "auth.edit_user", map[string]any{"user": bob.ID, "role": "wizard"}, 400, 12},
			{"edit an unknown user", "auth.edit_user", map[string]any{"user": "nobody", "role": "user"}, 400, 301},
		} {
			t.Run(c.name, func(t *testing.T) {
				e.Call(t, c.op, c.body).Err(t, c.code, c.subcode)
			})
		}
	}, testenv.WithUsers(bob))
}
