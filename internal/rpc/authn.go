package rpc

import (
	"context"
	"encoding/base64"
	"net"
	"net/http"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/httpx"
)

// CookieName is the session cookie the web clients use.
const CookieName = httpx.SessionCookie

// Authenticator resolves the credentials of a request.
type Authenticator interface {
	// Authenticate returns the caller's identity, or an *apierr.Error
	// (401 family) for missing or bad credentials.
	Authenticate(ctx context.Context, r *http.Request) (*auth.Identity, error)
}

// Credentials is what a request's credentials are checked against
// (*auth.Service).
type Credentials interface {
	// CheckKey is given the caller's address: failed logins are
	// throttled per key and per address.
	CheckKey(ctx context.Context, key, secret, addr string) (*auth.Identity, error)
	VerifyToken(ctx context.Context, token string) (*auth.Identity, error)
	// Impersonate checks that the caller may act as user and returns the
	// user's identity.
	Impersonate(ctx context.Context, caller *auth.Identity, user string) (*auth.Identity, error)
}

// RequestAuth reads a request's credentials: Basic key:secret, a Bearer
// token, or the session cookie when no Authorization header is sent. The
// API port and the files port both use it.
type RequestAuth struct {
	Credentials Credentials
}

// Authenticate implements Authenticator. A caller sending the
// Impersonate-As header (X-ClearML- or X-Trains-) is then replaced by the
// user it names, when its role allows.
func (a RequestAuth) Authenticate(ctx context.Context, r *http.Request) (*auth.Identity, error) {
	id, err := a.authenticate(ctx, r)
	if err != nil {
		return nil, err
	}
	as := r.Header.Get("X-ClearML-Impersonate-As")
	if as == "" {
		as = r.Header.Get("X-Trains-Impersonate-As")
	}
	if as == "" {
		return id, nil
	}
	return a.Credentials.Impersonate(ctx, id, as)
}

func (a RequestAuth) authenticate(ctx context.Context, r *http.Request) (*auth.Identity, error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		if ck, err := r.Cookie(CookieName); err == nil && ck.Value != "" {
			return a.Credentials.VerifyToken(ctx, ck.Value)
		}
		return nil, apierr.NoCredentials()
	}
	scheme, value, _ := strings.Cut(h, " ")
	switch scheme {
	case "Basic":
		key, secret, err := basicCredentials(value)
		if err != nil {
			return nil, err
		}
		return a.Credentials.CheckKey(ctx, key, secret, remoteHost(r))
	case "Bearer":
		return a.Credentials.VerifyToken(ctx, strings.TrimSpace(value))
	}
	return nil, apierr.BadAuthType()
}

// basicCredentials decodes the base64 "key:secret" of a Basic header.
func basicCredentials(value string) (key, secret string, err error) {
	raw, decErr := base64.StdEncoding.DecodeString(strings.TrimSpace(value))
	if decErr != nil {
		return "", "", apierr.BadCredentials()
	}
	key, secret, ok := strings.Cut(string(raw), ":")
	if !ok {
		return "", "", apierr.BadCredentials()
	}
	return key, secret, nil
}

// remoteHost is the address the request's connection comes from, without
// its port. Forwarding headers are not trusted: anyone can set them, and
// a forged one would dodge the per-address throttle.
func remoteHost(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
