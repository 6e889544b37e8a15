package system_test

import (
	"encoding/base64"
	"net/http"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/limits"
	"github.com/trove-ml/trove/internal/testenv"
)

// A second user, logging in from another address.
var bob = auth.FixedUser{ID: "bob-id", Name: "bob", AccessKey: "BOBKEY0000000000000000000000", SecretKey: "bob-secret-000000000000000000000000000000"}

func basicAuth(key, secret string) func(http.Header) {
	return func(h http.Header) {
		h.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(key+":"+secret)))
	}
}

func bearer(tok string) func(http.Header) {
	return func(h http.Header) { h.Set("Authorization", "Bearer "+tok) }
}

// serverClock is a settable clock installed as the server's.
type serverClock struct{ now time.Time }

func fixServerClock(e *testenv.Env) *serverClock {
	c := &serverClock{now: time.Now().Truncate(time.Second)}
	e.App.Deps.Now = func() time.Time { return c.now }
	return c
}

// Issue 12: failed logins are limited per access key and per source
// address; past the allowance the answer is a 429 envelope with
// Retry-After, whatever the secret.
func TestFailedLoginsAreThrottled(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		c := fixServerClock(e)
		for i := 0; i < limits.LoginFailures; i++ {
			e.Do(t, "auth.login", nil, basicAuth(testenv.AdminKey, "wrong")).Err(t, 401, 22)
		}
		r := e.Do(t, "auth.login", nil, basicAuth(testenv.AdminKey, "wrong")).Err(t, 429, 0)
		if r.Msg() != "Too many failed logins (try again in 1 s)" || r.Header.Get("Retry-After") != "1" {
			t.Fatalf("429 message %q, Retry-After %q", r.Msg(), r.Header.Get("Retry-After"))
		}
		// The key is held even with its right secret, and on any call.
		e.Do(t, "auth.login", nil, basicAuth(testenv.AdminKey, testenv.AdminSecret)).Err(t, 429, 0)
		e.Do(t, "projects.get_all", nil, basicAuth(testenv.AdminKey, testenv.AdminSecret)).Err(t, 429, 0)
		// So is the address, for any key.
		e.Do(t, "auth.login", nil, basicAuth(bob.AccessKey, bob.SecretKey)).Err(t, 429, 0)
		// Another key from another address is not limited.
		e.DoFrom(t, "127.0.0.2", "auth.login", nil, basicAuth(bob.AccessKey, bob.SecretKey)).OK(t)
		e.DoFrom(t, "127.0.0.2", "auth.login", nil, basicAuth(bob.AccessKey, "wrong")).Err(t, 401, 22)
		// Tokens are not throttled.
		e.Call(t, "users.get_current_user", nil).OK(t)
		// A second later one attempt is allowed again.
		c.now = c.now.Add(time.Second)
		e.Do(t, "auth.login", nil, basicAuth(testenv.AdminKey, testenv.AdminSecret)).OK(t)
	}, testenv.WithUsers(bob))
}

// login asks auth.login for a token lasting sec seconds.
func login(t *testing.T, e *testenv.Env, sec int, hdr func(http.Header)) string {
	t.Helper()
	return e.Do(t, "auth.login", map[string]any{"expiration_sec": sec}, hdr).OK(t).Str("token")
}

// Issue 12: a token minted from a one-hour token through auth.login with
// Bearer expires with it, whatever lifetime it asked for.
func TestTokenFromTokenExpiresWithIt(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		c := fixServerClock(e)
		parent := login(t, e, 3600, basicAuth(testenv.AdminKey, testenv.AdminSecret))
		child := login(t, e, int(auth.MaxExpiry/time.Second), bearer(parent))
		pexp, cexp := jwtClaims(t, parent)["exp"].(float64), jwtClaims(t, child)["exp"].(float64)
		if cexp != pexp || int64(pexp) != c.now.Add(time.Hour).Unix() {
			t.Fatalf("child expires at %v, parent at %v (now %d)", cexp, pexp, c.now.Unix())
		}
		e.CallAs(t, child, "users.get_current_user", nil).OK(t)
		c.now = c.now.Add(time.Hour)
		e.CallAs(t, child, "users.get_current_user", nil).Err(t, 401, 30)
	})
}

// Issue 12: logging out of a token revokes the tokens derived from it;
// logging out of a derived token revokes only that one.
func TestLogoutRevokesTokensFromToken(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		parent := login(t, e, 3600, basicAuth(testenv.AdminKey, testenv.AdminSecret))
		child := login(t, e, 3600, bearer(parent))
		sibling := login(t, e, 3600, bearer(parent))

		e.CallAs(t, sibling, "auth.logout", nil).OK(t)
		e.CallAs(t, sibling, "users.get_current_user", nil).Err(t, 401, 30)
		e.CallAs(t, parent, "users.get_current_user", nil).OK(t)
		e.CallAs(t, child, "users.get_current_user", nil).OK(t)

		e.CallAs(t, parent, "auth.logout", nil).OK(t)
		r := e.CallAs(t, child, "users.get_current_user", nil).Err(t, 401, 30)
		if r.Msg() != "Invalid token (revoked token)" {
			t.Fatalf("child after the parent's logout: %s", r.Raw)
		}
		// The admin's own key/secret token is not of this lineage.
		e.Call(t, "users.get_current_user", nil).OK(t)
	})
}
