package system

import (
	"context"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/rpc"
)

// The caller's own access keys (the web app's workspace settings).

type createCredentialsRequest struct {
	Label string `json:"label"`
}

type credentialsOut struct {
	AccessKey string `json:"access_key"`
	SecretKey string `json:"secret_key,omitempty"`
	Label     string `json:"label,omitempty"`
	// LastUsed is null for a key never used.
	LastUsed     *string `json:"last_used,omitempty"`
	LastUsedFrom string  `json:"last_used_from,omitempty"`
}

type createCredentialsResponse struct {
	Credentials credentialsOut `json:"credentials"`
}

func (s *service) createCredentials(ctx context.Context, c *rpc.Call, req *createCredentialsRequest) (*createCredentialsResponse, error) {
	cr, err := auth.CreateCredentials(ctx, &s.d.Env, c.Identity, req.Label)
	if err != nil {
		return nil, err
	}
	return &createCredentialsResponse{Credentials: credentialsOut{AccessKey: cr.AccessKey, SecretKey: cr.SecretKey, Label: cr.Label}}, nil
}

type getCredentialsResponse struct {
	Credentials []credentialsOut `json:"credentials"`
}

func (s *service) getCredentials(ctx context.Context, c *rpc.Call, _ *empty) (*getCredentialsResponse, error) {
	list, err := auth.Credentials(ctx, &s.d.Env, c.Identity)
	if err != nil {
		return nil, err
	}
	out := make([]credentialsOut, 0, len(list))
	for _, cr := range list {
		o := credentialsOut{AccessKey: cr.AccessKey, Label: cr.Label, LastUsedFrom: cr.LastUsedFrom}
		if cr.LastUsed > 0 {
			t := fromMillis(cr.LastUsed)
			o.LastUsed = &t
		}
		out = append(out, o)
	}
	return &getCredentialsResponse{Credentials: out}, nil
}

type editCredentialsRequest struct {
	AccessKey string `json:"access_key" required:"true"`
	Label     string `json:"label"`
}

type editCredentialsResponse struct {
	Updated int `json:"updated"`
}

func (s *service) editCredentials(ctx context.Context, c *rpc.Call, req *editCredentialsRequest) (*editCredentialsResponse, error) {
	n, err := auth.EditCredentials(ctx, &s.d.Env, c.Identity, req.AccessKey, req.Label)
	if err != nil {
		return nil, err
	}
	return &editCredentialsResponse{Updated: n}, nil
}

type revokeCredentialsRequest struct {
	AccessKey string `json:"access_key" required:"true"`
}

type revokeCredentialsResponse struct {
	Revoked int `json:"revoked"`
}

func (s *service) revokeCredentials(ctx context.Context, c *rpc.Call, req *revokeCredentialsRequest) (*revokeCredentialsResponse, error) {
	n, err := auth.RevokeCredentials(ctx, &s.d.Env, c.Identity, req.AccessKey)
	if err != nil {
		return nil, err
	}
	s.d.Auth.ForgetKey(req.AccessKey)
	return &revokeCredentialsResponse{Revoked: n}, nil
}
