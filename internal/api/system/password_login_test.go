package system_test

import (
	"net/http"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/testenv"
)

// dana logs in to the web app with a username and password only; frank
// has a key pair and a login whose password is configured as a bcrypt
// hash.
var (
	dana  = auth.FixedUser{Name: "Dana", Username: "dana", Password: "dana-pass"}
	frank = auth.FixedUser{ID: "frank-id", Name: "Frank", AccessKey: "FRANKKEY", SecretKey: "frank-secret", Username: "frank", PasswordHash: mustHash("frank-pass")}
)

func mustHash(p string) string {
	h, err := bcrypt.GenerateFromPassword([]byte(p), bcrypt.MinCost)
	if err != nil {
		panic(err)
	}
	return string(h)
}

func sessionCookie(r *testenv.Response) *http.Cookie {
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == rpc.CookieName {
			return c
		}
	}
	return nil
}

// withCookie sends the session cookie as a browser on the web address
// does: same-origin (changes by cookie need it).
func withCookie(tok string) func(http.Header) {
	return func(h http.Header) {
		h.Set("Cookie", rpc.CookieName+"="+tok)
		h.Set("Sec-Fetch-Site", "same-origin")
	}
}

// Without logins in the configuration the login page asks for a name only.
func TestSupportedModesWithoutLogins(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		r := e.CallAs(t, "", "login.supported_modes", nil).OK(t)
		if testenv.Get(r.Data, "basic.enabled") != false {
			t.Fatalf("basic enabled without logins: %s", r.Raw)
		}
	}, testenv.WithUsers(bob))
}

// The app's login page: login.supported_modes enables basic login, then
// auth.login with Basic username:password sets the session cookie the app
// sends afterwards; logging out ends the session.
func TestPasswordLogin(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		r := e.CallAs(t, "", "login.supported_modes", map[string]any{}).OK(t)
		if testenv.Get(r.Data, "basic.enabled") != true || r.Data["authenticated"] != false {
			t.Fatalf("supported modes: %s", r.Raw)
		}
		r = e.Do(t, "auth.login", nil, basicAuth("dana", "dana-pass")).OK(t)
		ck := sessionCookie(r)
		if ck == nil || ck.Value != r.Str("token") || !ck.HttpOnly || ck.Path != "/" {
			t.Fatalf("session cookie %+v for %s", ck, r.Raw)
		}
		me := e.Do(t, "users.get_current_user", nil, withCookie(ck.Value)).OK(t)
		if me.Str("user.name") != "Dana" || me.Str("user.role") != "user" || me.Str("user.company.id") != auth.DefaultCompanyID {
			t.Fatalf("dana: %s", me.Raw)
		}
		if r := e.Do(t, "login.supported_modes", nil, withCookie(ck.Value)).OK(t); r.Data["authenticated"] != true {
			t.Fatalf("authenticated with the cookie: %s", r.Raw)
		}
		// Logging out clears the cookie and revokes the token.
		out := e.Do(t, "login.logout", nil, withCookie(ck.Value)).OK(t)
		if c := sessionCookie(out); c == nil || c.Value != "" || c.MaxAge >= 0 {
			t.Fatalf("logout cookie %+v", c)
		}
		e.Do(t, "users.get_current_user", nil, withCookie(ck.Value)).Err(t, 401, 30)

		// frank: the hashed password logs in, and so does his key pair.
		tok := e.Do(t, "auth.login", nil, basicAuth("frank", "frank-pass")).OK(t).Str("token")
		if e.CallAs(t, tok, "users.get_current_user", nil).OK(t).Str("user.id") != "frank-id" {
			t.Fatal("frank's password login")
		}
		e.CallAs(t, tok, "auth.logout", nil).OK(t)
		e.CallAs(t, tok, "users.get_current_user", nil).Err(t, 401, 30)
		if e.CallAs(t, e.Login(t, frank.AccessKey, frank.SecretKey), "users.get_current_user", nil).OK(t).Str("user.id") != "frank-id" {
			t.Fatal("frank's key pair")
		}
	}, testenv.WithUsers(dana, frank))
}

func TestPasswordLoginRefusals(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		for _, c := range []struct {
			name, user, pass string
		}{
			{"wrong password", "dana", "wrong"},
			{"unknown user", "nobody", "dana-pass"},
			{"password of another user", "frank", "dana-pass"},
			{"username is not the display name", "Dana", "dana-pass"},
			{"empty password", "dana", ""},
		} {
			t.Run(c.name, func(t *testing.T) {
				e.DoFrom(t, "127.0.0.3", "auth.login", nil, basicAuth(c.user, c.pass)).Err(t, 401, 22)
			})
		}
		// The password is stored hashed, never in clear.
		id, hash, err := e.App.Deps.DB.UserLogin(t.Context(), "dana")
		if err != nil || id == "" || bcrypt.CompareHashAndPassword([]byte(hash), []byte("dana-pass")) != nil {
			t.Fatalf("stored login of dana: %q %q %v", id, hash, err)
		}
	}, testenv.WithUsers(dana, frank))
}
