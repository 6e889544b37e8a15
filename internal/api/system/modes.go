package system

import (
	"context"

	"github.com/trove-ml/trove/internal/rpc"
)

type modesResponse struct {
	Basic         basicMode      `json:"basic"`
	SSO           map[string]any `json:"sso"`
	SSOProviders  []any          `json:"sso_providers"`
	ServerErrors  serverErrors   `json:"server_errors"`
	Authenticated bool           `json:"authenticated"`
}

type basicMode struct {
	Enabled bool      `json:"enabled"`
	Guest   guestMode `json:"guest"`
}

// guestMode carries every field the seeds list; Trove has no guest
// account, so it is disabled and its names are empty.
type guestMode struct {
	Enabled  bool   `json:"enabled"`
	Name     string `json:"name"`
	Password string `json:"password"`
	Username string `json:"username"`
}

type serverErrors struct {
	MissedESUpgrade bool `json:"missed_es_upgrade"`
	ESConnectionErr bool `json:"es_connection_error"`
}

type modesRequest struct {
	CallbackURLPrefix string `json:"callback_url_prefix"`
	State             string `json:"state"`
}

// supportedModes enables the login page's username and password form when
// a configured user has a login.
func (s *service) supportedModes(ctx context.Context, c *rpc.Call, _ *modesRequest) (*modesResponse, error) {
	basic, err := s.d.Auth.PasswordLoginEnabled(ctx)
	if err != nil {
		return nil, err
	}
	return &modesResponse{Basic: basicMode{Enabled: basic}, SSO: map[string]any{}, SSOProviders: []any{}, Authenticated: c.Identity != nil}, nil
}
