package rpc

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/auth"
)

// recordingCredentials accepts key K / secret S and token T, and records
// what it was asked.
type recordingCredentials struct{ key, secret, token, addr string }

func (c *recordingCredentials) CheckKey(_ context.Context, key, secret, addr string) (*auth.Identity, error) {
	c.key, c.secret, c.addr = key, secret, addr
	if key == "K" && secret == "S" {
		return &auth.Identity{UserID: "by-key"}, nil
	}
	return nil, apierr.InvalidCredentials()
}

func (c *recordingCredentials) VerifyToken(_ context.Context, token string) (*auth.Identity, error) {
	c.token = token
	if token == "T" {
		return &auth.Identity{UserID: "by-token"}, nil
	}
	return nil, apierr.InvalidToken("bad")
}

// Impersonate lets "by-key" act as "other"; anyone else is refused.
func (c *recordingCredentials) Impersonate(_ context.Context, caller *auth.Identity, user string) (*auth.Identity, error) {
	if caller.UserID == "by-key" && user == "other" {
		return &auth.Identity{UserID: "other"}, nil
	}
	return nil, apierr.ImpersonationError("impersonation not allowed")
}

func TestRequestAuth(t *testing.T) {
	basic := func(s string) string { return "Basic " + base64.StdEncoding.EncodeToString([]byte(s)) }
	cases := []struct {
		name, authorization, cookie string
		user                        string // identity expected, or
		code, subcode               int    // the error
		key, secret, token          string // what reached the credentials
		sendEmptyCookie             bool
		impersonate, trainsHeader   string
	}{
		{name: "basic", authorization: basic("K:S"), user: "by-key", key: "K", secret: "S"},
		{name: "secret with a colon", authorization: basic("K:S:x"), code: 401, subcode: 22, key: "K", secret: "S:x"},
		{name: "basic with padding spaces", authorization: "Basic  " + base64.StdEncoding.EncodeToString([]byte("K:S")) + " ", user: "by-key", key: "K", secret: "S"},
		{name: "basic not base64", authorization: "Basic %%%", code: 401, subcode: 21},
		{name: "basic without colon", authorization: basic("KS"), code: 401, subcode: 21},
		{name: "bearer", authorization: "Bearer T", user: "by-token", token: "T"},
		{name: "bad bearer", authorization: "Bearer X", code: 401, subcode: 30, token: "X"},
		{name: "unknown scheme", authorization: "Digest abc", code: 401, subcode: 10},
		{name: "cookie", cookie: "T", user: "by-token", token: "T"},
		{name: "header wins over cookie", authorization: basic("K:S"), cookie: "T", user: "by-key", key: "K", secret: "S"},
		{name: "empty cookie", sendEmptyCookie: true, code: 401, subcode: 20},
		{name: "nothing", code: 401, subcode: 20},
		{name: "impersonate", authorization: basic("K:S"), impersonate: "other", user: "other", key: "K", secret: "S"},
		{name: "impersonate, old header name", authorization: basic("K:S"), trainsHeader: "other", user: "other", key: "K", secret: "S"},
		{name: "impersonation refused", authorization: "Bearer T", impersonate: "other", code: 400, subcode: 6, token: "T"},
		{name: "impersonation needs credentials", impersonate: "other", code: 401, subcode: 20},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/tasks.get_all", nil)
			if c.authorization != "" {
				r.Header.Set("Authorization", c.authorization)
			}
			if c.cookie != "" || c.sendEmptyCookie {
				r.AddCookie(&http.Cookie{Name: CookieName, Value: c.cookie})
			}
			if c.impersonate != "" {
				r.Header.Set("X-ClearML-Impersonate-As", c.impersonate)
			}
			if c.trainsHeader != "" {
				r.Header.Set("X-Trains-Impersonate-As", c.trainsHeader)
			}
			creds := &recordingCredentials{}
			id, err := RequestAuth{Credentials: creds}.Authenticate(context.Background(), r)
			if c.user != "" {
				if err != nil || id.UserID != c.user {
					t.Fatalf("want %s, got %+v, %v", c.user, id, err)
				}
			} else if !apierr.Is(err, c.code, c.subcode) {
				t.Fatalf("want %d/%d, got %v", c.code, c.subcode, err)
			}
			if creds.key != c.key || creds.secret != c.secret || creds.token != c.token {
				t.Fatalf("credentials got key %q secret %q token %q", creds.key, creds.secret, creds.token)
			}
			if c.key != "" && creds.addr != "192.0.2.1" {
				t.Fatalf("CheckKey got address %q, want the connection's host 192.0.2.1", creds.addr)
			}
		})
	}
}
