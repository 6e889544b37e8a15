package system_test

import (
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/testenv"
)

// The security issue's revocation gap: a token kept working for up to its
// 30 days (365 with expiration_sec) after its user's role was lowered, its
// key revoked or its user deleted. Now each change stops the tokens at
// once on the server that made it (other servers: internal/app's
// TestUserChangesReachEveryNode), and a new login works as the changed
// user may.
func TestChangesStopLiveTokensOverHTTP(t *testing.T) {
	for _, c := range []struct {
		name string
		// change is made by the admin or root; relogin says whether bob
		// may log in again with his key afterwards.
		change  func(t *testing.T, e *testenv.Env, rootTok, bobTok string)
		relogin bool
	}{
		{"role lowered", func(t *testing.T, e *testenv.Env, _, _ string) {
			e.Call(t, "auth.edit_user", map[string]any{"user": bob.ID, "role": "guest"}).OK(t)
		}, true},
		{"role raised", func(t *testing.T, e *testenv.Env, _, _ string) {
			e.Call(t, "auth.edit_user", map[string]any{"user": bob.ID, "role": "admin"}).OK(t)
		}, true},
		{"user deleted", func(t *testing.T, e *testenv.Env, rootTok, _ string) {
			e.CallAs(t, rootTok, "users.delete", map[string]any{"user": bob.ID}).OK(t)
		}, false},
		{"key revoked", func(t *testing.T, e *testenv.Env, _, bobTok string) {
			e.CallAs(t, bobTok, "auth.revoke_credentials", map[string]any{"access_key": bob.AccessKey}).OK(t)
		}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			testenv.Each(t, func(t *testing.T, e *testenv.Env) {
				rootTok := mustLogin(t, e, rootUser)
				// the 365-day token the issue names, and one derived from it
				long := login(t, e, int(auth.MaxExpiry/time.Second), basicAuth(bob.AccessKey, bob.SecretKey))
				derived := login(t, e, 3600, bearer(long))
				for _, tok := range []string{long, derived} {
					e.CallAs(t, tok, "projects.get_all", nil).OK(t)
				}
				c.change(t, e, rootTok, derived)
				for _, tok := range []string{long, derived} {
					r := e.CallAs(t, tok, "projects.get_all", nil).Err(t, 401, 30)
					if r.Msg() != "Invalid token (revoked token)" {
						t.Fatalf("refusal %q", r.Msg())
					}
				}
				r := e.Do(t, "auth.login", nil, basicAuth(bob.AccessKey, bob.SecretKey))
				if !c.relogin {
					r.Err(t, 401, 22)
					return
				}
				fresh := r.OK(t).Str("token")
				e.CallAs(t, fresh, "projects.get_all", nil).OK(t)
				if jwtClaims(t, fresh)["identity"].(map[string]any)["role"] == auth.RoleUser {
					t.Fatal("the new token still carries the old role")
				}
			}, testenv.WithUsers(bob, rootUser))
		})
	}
}

// Revoking one key stops only the tokens minted from it: the user's
// tokens from another key, and the admin's, keep working.
func TestRevokedKeyStopsOnlyItsTokens(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		bobTok := mustLogin(t, e, bob)
		cr := e.CallAs(t, bobTok, "auth.create_credentials", nil).OK(t)
		key, secret := cr.Str("credentials.access_key"), cr.Str("credentials.secret_key")
		second := login(t, e, 3600, basicAuth(key, secret))
		e.CallAs(t, second, "projects.get_all", nil).OK(t)

		e.CallAs(t, bobTok, "auth.revoke_credentials", map[string]any{"access_key": key}).OK(t)
		e.CallAs(t, second, "projects.get_all", nil).Err(t, 401, 30)
		e.CallAs(t, bobTok, "projects.get_all", nil).OK(t)
		e.Call(t, "projects.get_all", nil).OK(t)
	}, testenv.WithUsers(bob))
}

// A token an admin mints while impersonating a user (auth.login with the
// Impersonate-As header) is the user's, but it stops with the admin: when
// the admin's role changes, its key is revoked or its session logged
// out. Otherwise a demoted admin could keep tokens of every user of its
// company.
func TestImpersonatedTokensStopWithTheImpersonator(t *testing.T) {
	otherAdminOfCompany := auth.FixedUser{ID: "adm2-id", Name: "adm2", AccessKey: "ADM2KEY0000000000000000000000", SecretKey: "adm2-secret-00000000000000000000000000000", Role: auth.RoleAdmin}
	for _, c := range []struct {
		name   string
		change func(t *testing.T, e *testenv.Env, rootTok, admTok string)
	}{
		{"impersonator lowered", func(t *testing.T, e *testenv.Env, rootTok, _ string) {
			e.CallAs(t, rootTok, "auth.edit_user", map[string]any{"user": otherAdminOfCompany.ID, "role": "user"}).OK(t)
		}},
		{"impersonator's key revoked", func(t *testing.T, e *testenv.Env, _, admTok string) {
			e.CallAs(t, admTok, "auth.revoke_credentials", map[string]any{"access_key": otherAdminOfCompany.AccessKey}).OK(t)
		}},
		{"impersonator logged out", func(t *testing.T, e *testenv.Env, _, admTok string) {
			e.CallAs(t, admTok, "auth.logout", nil).OK(t)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			testenv.Each(t, func(t *testing.T, e *testenv.Env) {
				rootTok := mustLogin(t, e, rootUser)
				admTok := mustLogin(t, e, otherAdminOfCompany)
				asBob := e.Do(t, "auth.login", map[string]any{"expiration_sec": int(auth.MaxExpiry / time.Second)}, impersonate(admTok, bob.ID)).OK(t).Str("token")
				if e.CallAs(t, asBob, "users.get_current_user", nil).OK(t).Str("user.id") != bob.ID {
					t.Fatal("the impersonated token is not bob's")
				}
				// it expires with the admin's token, not a year on
				if jwtClaims(t, asBob)["exp"] != jwtClaims(t, admTok)["exp"] {
					t.Fatalf("impersonated token expires at %v, the admin's at %v", jwtClaims(t, asBob)["exp"], jwtClaims(t, admTok)["exp"])
				}
				c.change(t, e, rootTok, admTok)
				e.CallAs(t, asBob, "users.get_current_user", nil).Err(t, 401, 30)
				// bob's own login is untouched
				e.CallAs(t, mustLogin(t, e, bob), "users.get_current_user", nil).OK(t)
			}, testenv.WithUsers(bob, rootUser, otherAdminOfCompany))
		})
	}
}
