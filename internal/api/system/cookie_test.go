package system_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/testenv"
)

// The security issue's cookie: it had no Secure flag and a Max-Age of
// about three years against a 30-day token. Now it lives exactly as long
// as its token, is HttpOnly and SameSite=Lax, and is Secure when the
// request came over TLS or the public host is https://.
func TestSessionCookieFlags(t *testing.T) {
	day := int(24 * time.Hour / time.Second)
	for _, c := range []struct {
		name       string
		publicHost string
		secure     bool
	}{
		{"plain HTTP", "", false},
		{"http public host", "http://ml.example.com", false},
		{"https public host", "https://ml.example.com", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			testenv.Each(t, func(t *testing.T, e *testenv.Env) {
				clk := fixServerClock(e)
				check := func(what string, r *testenv.Response, maxAge int) {
					t.Helper()
					ck := sessionCookie(r.OK(t))
					if ck == nil {
						t.Fatalf("%s: no session cookie in %v", what, r.Header)
					}
					if ck.MaxAge != maxAge || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Secure != c.secure || ck.Path != "/" {
						t.Fatalf("%s: cookie %+v, want Max-Age %d, HttpOnly, SameSite=Lax, Secure=%v", what, ck, maxAge, c.secure)
					}
				}
				admin := basicAuth(testenv.AdminKey, testenv.AdminSecret)
				r := e.Do(t, "auth.login", nil, admin)
				check("default lifetime", r, 30*day)
				if exp := int64(jwtClaims(t, r.Str("token"))["exp"].(float64)); exp != clk.now.Unix()+int64(30*day) {
					t.Fatalf("token expires at %d, cookie after %d s from %d", exp, 30*day, clk.now.Unix())
				}
				check("expiration_sec", e.Do(t, "auth.login", map[string]any{"expiration_sec": 3600}, admin), 3600)
				check("a year", e.Do(t, "auth.login", map[string]any{"expiration_sec": 365 * day}, admin), 365*day)
				// A token minted from a one-hour token half an hour old
				// lives half an hour, whatever it asked: so does its cookie.
				parent := login(t, e, 3600, admin)
				clk.now = clk.now.Add(30 * time.Minute)
				check("derived", e.Do(t, "auth.login", map[string]any{"expiration_sec": 365 * day}, bearer(parent)), 1800)
				// Logging out clears the cookie with the same flags.
				out := sessionCookie(e.CallAs(t, parent, "auth.logout", nil).OK(t))
				if out == nil || out.Value != "" || out.MaxAge >= 0 || out.Secure != c.secure || !out.HttpOnly {
					t.Fatalf("logout cookie %+v", out)
				}
			}, func(cfg *config.Config) { cfg.PublicHost = c.publicHost })
		})
	}
}

// A login over TLS gets a Secure cookie even without an https public
// host.
func TestSessionCookieSecureOverTLS(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		srv := httptest.NewTLSServer(e.App.Handler)
		defer srv.Close()
		req, err := http.NewRequest(http.MethodPost, srv.URL+"/auth.login", bytes.NewReader([]byte("{}")))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		basicAuth(testenv.AdminKey, testenv.AdminSecret)(req.Header)
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		var ck *http.Cookie
		for _, c := range resp.Cookies() {
			if c.Name == "clearml_token_basic" {
				ck = c
			}
		}
		if resp.StatusCode != 200 || ck == nil || !ck.Secure || !ck.HttpOnly || ck.MaxAge != int(auth.DefaultExpiry/time.Second) {
			t.Fatalf("over TLS: status %d, cookie %+v", resp.StatusCode, ck)
		}
	})
}
