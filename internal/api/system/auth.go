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
	tok, err := s.d.Auth.IssueToken(c.Identity, ttl)
	if err != nil {
		return nil, err
	}
	c.SetCookie(&http.Cookie{Name: rpc.CookieName, Value: tok, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteLaxMode, MaxAge: 99999999})
	return &loginResponse{Token: tok}, nil
}

type empty struct{}

func (s *service) logout(ctx context.Context, c *rpc.Call, _ *empty) (*empty, error) {
	if c.Identity != nil {
		if err := s.d.Auth.Revoke(ctx, c.Identity); err != nil {
			return nil, err
		}
	}
	c.SetCookie(&http.Cookie{Name: rpc.CookieName, Value: "", Path: "/", MaxAge: -1, Expires: time.Unix(0, 0)})
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
