package system

import (
	"context"
	"net/http"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/rpc"
)

type loginRequest struct {
	// ExpirationSec comes from the body or the query string.
	ExpirationSec *int64 `json:"expiration_sec"`
}

func (r *loginRequest) Validate() error {
	if r.ExpirationSec != nil && (*r.ExpirationSec < 1 || *r.ExpirationSec > int64(auth.MaxExpiry/time.Second)) {
		return apierr.Validation("expiration_sec", "must be between 1 and %d seconds", int64(auth.MaxExpiry/time.Second))
	}
	return nil
}

type loginResponse struct {
	Token string `json:"token"`
}

func (s *service) login(ctx context.Context, c *rpc.Call, req *loginRequest) (*loginResponse, error) {
	ttl := auth.DefaultExpiry
	if req.ExpirationSec != nil {
		ttl = time.Duration(*req.ExpirationSec) * time.Second
	}
	tok, exp, err := s.d.Auth.IssueSession(c.Identity, ttl)
	if err != nil {
		return nil, err
	}
	ck := s.sessionCookie(c, tok)
	// The cookie lives as long as its token (a derived token's may be
	// shorter than asked); at least a second, as 0 would mean a cookie
	// for the browser session and a negative one its deletion.
	ck.MaxAge = int(auth.MaxExpiry / time.Second)
	if !exp.IsZero() {
		ck.MaxAge = max(int(exp.Unix()-s.d.Now().Unix()), 1)
	}
	c.SetCookie(ck)
	return &loginResponse{Token: tok}, nil
}

// sessionCookie is the session cookie holding tok: HttpOnly, SameSite=Lax,
// and Secure when the request came over TLS or clients reach Trove over
// TLS (an https:// public host).
func (s *service) sessionCookie(c *rpc.Call, tok string) *http.Cookie {
	secure := s.d.SecureCookies || (c.Request != nil && c.Request.TLS != nil)
	return &http.Cookie{Name: rpc.CookieName, Value: tok, Path: "/", HttpOnly: true, Secure: secure,
		SameSite: http.SameSiteLaxMode}
}

type empty struct{}

func (s *service) logout(ctx context.Context, c *rpc.Call, _ *empty) (*empty, error) {
	if c.Identity != nil {
		if err := s.d.Auth.Revoke(ctx, c.Identity); err != nil {
			return nil, err
		}
	}
	ck := s.sessionCookie(c, "")
	ck.MaxAge, ck.Expires = -1, time.Unix(0, 0)
	c.SetCookie(ck)
	return &empty{}, nil
}

// ping echoes the body beside a fixed message.
func (s *service) ping(ctx context.Context, c *rpc.Call) (any, error) {
	out := map[string]any{}
	if err := rpc.Decode(c.Body, &out); err != nil {
		return nil, err
	}
	out["msg"] = "ClearML server"
	return out, nil
}
