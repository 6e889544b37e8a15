package system

import (
	"context"

	"github.com/trove-ml/trove/internal/auth"
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

func (s *service) supportedModes(ctx context.Context, c *rpc.Call, _ *modesRequest) (*modesResponse, error) {
	return &modesResponse{SSO: map[string]any{}, SSOProviders: []any{}, Authenticated: c.Identity != nil}, nil
}

type currentUserResponse struct {
	User           userInfo       `json:"user"`
	GettingStarted map[string]any `json:"getting_started"`
	Settings       map[string]any `json:"settings"`
}

type userInfo struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	GivenName  string `json:"given_name"`
	FamilyName string `json:"family_name"`
	Created    string `json:"created"`
	Company    idName `json:"company"`
	Role       string `json:"role"`
}

type idName struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

func (s *service) currentUser(ctx context.Context, c *rpc.Call, _ *empty) (*currentUserResponse, error) {
	u, err := auth.CurrentUser(ctx, &s.d.Env, c.User())
	if err != nil {
		return nil, err
	}
	return &currentUserResponse{
		User: userInfo{ID: u.ID, Name: u.Name, GivenName: u.GivenName, FamilyName: u.FamilyName,
			Created: fromMillis(u.Created), Company: idName{c.Company(), c.Identity.CompanyName}, Role: c.Identity.Role},
		GettingStarted: map[string]any{"agentName": "clearml", "configure": "clearml-init",
			"install": "pip install clearml", "packageName": "clearml"},
		Settings: map[string]any{"max_download_items": 50000},
	}, nil
}
