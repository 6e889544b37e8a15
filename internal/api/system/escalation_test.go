package system_test

import (
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/testenv"
)

// A root of the default company, and an admin and a root of another.
var (
	rootUser   = auth.FixedUser{ID: "root-id", Name: "root", AccessKey: "ROOTKEY0000000000000000000000", SecretKey: "root-secret-00000000000000000000000000000", Role: auth.RoleRoot}
	otherAdmin = auth.FixedUser{ID: "oadmin-id", Name: "oadmin", AccessKey: "OADMINKEY00000000000000000000", SecretKey: "oadmin-secret-000000000000000000000000000", Role: auth.RoleAdmin, Company: "other-co"}
)

// The security issue's escalation: a company admin created a root user
// and, acting as it, reached another company's records. An admin now
// grants company roles in its own company only, and never touches a
// system or root user; system and root grant anything.
func TestAdminCannotEscalate(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		co := auth.DefaultCompanyID
		rootTok := e.Login(t, rootUser.AccessKey, rootUser.SecretKey)
		newUser := func(name, company, role string) map[string]any {
			return map[string]any{"name": name, "company": company, "email": name + "@example.com", "role": role}
		}
		for _, c := range []struct {
			name, token, op string
			body            map[string]any
			code, subcode   int
			msg             string
		}{
			{"admin creates a root user", e.Token, "auth.create_user", newUser("r", co, "root"), 403, 20,
				"Forbidden (not allowed for role) (only system and root may grant role root): role=admin"},
			{"admin creates a system user", e.Token, "auth.create_user", newUser("s", co, "system"), 403, 20,
				"Forbidden (not allowed for role) (only system and root may grant role system): role=admin"},
			{"admin creates a user in another company", e.Token, "auth.create_user", newUser("x", "other-co", "user"), 403, 20,
				"Forbidden (not allowed for role) (cannot create users in another company): company=other-co, role=admin"},
			{"admin creates an admin in another company", e.Token, "auth.create_user", newUser("y", "other-co", "admin"), 403, 20, ""},
			{"admin raises a user to root", e.Token, "auth.edit_user", map[string]any{"user": bob.ID, "role": "root"}, 403, 20,
				"Forbidden (not allowed for role) (only system and root may grant role root): role=admin"},
			{"admin raises itself to system", e.Token, "auth.edit_user", map[string]any{"user": auth.AdminUserID, "role": "system"}, 403, 20, ""},
			{"admin lowers a root", e.Token, "auth.edit_user", map[string]any{"user": rootUser.ID, "role": "user"}, 403, 20,
				"Forbidden (not allowed for role) (user has role root): role=admin, user=root-id"},
			{"admin edits a user of another company", e.Token, "auth.edit_user", map[string]any{"user": otherAdmin.ID, "role": "guest"}, 400, 301, ""},
			{"admin deletes a root", e.Token, "users.delete", map[string]any{"user": rootUser.ID}, 403, 20, ""},
			{"user creates a user", mustLogin(t, e, bob), "auth.create_user", newUser("z", co, "user"), 403, 20, ""},
			{"user raises itself", mustLogin(t, e, bob), "auth.edit_user", map[string]any{"user": bob.ID, "role": "admin"}, 403, 20, ""},
		} {
			t.Run(c.name, func(t *testing.T) {
				r := e.CallAs(t, c.token, c.op, c.body).Err(t, c.code, c.subcode)
				if c.msg != "" && r.Msg() != c.msg {
					t.Fatalf("message %q, want %q", r.Msg(), c.msg)
				}
			})
		}
		// Nothing was created or changed by the refused calls.
		for _, u := range e.Call(t, "users.get_all", nil).OK(t).List("users") {
			m := u.(map[string]any)
			if n, _ := m["name"].(string); strings.Contains("rsxyz", n) && len(n) == 1 {
				t.Fatalf("a refused create_user made user %v", m)
			}
		}
		wantRole(t, e, rootUser.ID, auth.RoleRoot)
		wantRole(t, e, bob.ID, auth.RoleUser)
		wantRole(t, e, auth.AdminUserID, auth.RoleAdmin)

		// Root grants root and reaches other companies.
		id := e.CallAs(t, rootTok, "auth.create_user", newUser("newroot", co, "root")).OK(t).Str("id")
		wantRole(t, e, id, auth.RoleRoot)
		e.CallAs(t, rootTok, "auth.edit_user", map[string]any{"user": bob.ID, "role": "root"}).OK(t)
		wantRole(t, e, bob.ID, auth.RoleRoot)
		e.CallAs(t, rootTok, "auth.create_user", newUser("far", "other-co", "admin")).OK(t)
		e.CallAs(t, rootTok, "auth.edit_user", map[string]any{"user": otherAdmin.ID, "role": "user"}).OK(t)
		// The admin still manages its own company's company roles.
		carol := e.Call(t, "auth.create_user", newUser("carol", co, "superuser")).OK(t).Str("id")
		e.Call(t, "auth.edit_user", map[string]any{"user": carol, "role": "guest"}).OK(t)
		wantRole(t, e, carol, auth.RoleGuest)
	}, testenv.WithUsers(bob, rootUser, otherAdmin))
}

func mustLogin(t *testing.T, e *testenv.Env, u auth.FixedUser) string {
	t.Helper()
	return e.Login(t, u.AccessKey, u.SecretKey)
}

// wantRole checks a user's stored role (read as the admin through
// users.get_by_id, or impersonating when the user is elsewhere).
func wantRole(t *testing.T, e *testenv.Env, user, role string) {
	t.Helper()
	r := e.Call(t, "users.get_by_id", map[string]any{"user": user}).OK(t)
	if got := r.Str("user.role"); got != role {
		t.Fatalf("user %s has role %q, want %q: %s", user, got, role, r.Raw)
	}
}
