package users

import (
	"context"

	"github.com/trove-ml/trove/internal/rpc"
	userdom "github.com/trove-ml/trove/internal/users"
)

type empty struct{}

type currentUserResponse struct {
	User           currentUser    `json:"user"`
	GettingStarted map[string]any `json:"getting_started"`
	Settings       map[string]any `json:"settings"`
}

// currentUser is the user with its company as an object, as the app reads
// it (the role is the caller's, which impersonation may have changed).
type currentUser struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	GivenName  string `json:"given_name"`
	FamilyName string `json:"family_name"`
	Email      string `json:"email,omitempty"`
	Avatar     string `json:"avatar,omitempty"`
	Created    string `json:"created"`
	// CreatedInVersion is absent for users older than the field.
	CreatedInVersion string `json:"created_in_version,omitempty"`
	Company          idName `json:"company"`
	Role             string `json:"role"`
}

type idName struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// gettingStarted is what the app's "getting started" dialog shows: how to
// install and configure the SDK and the agent.
var gettingStarted = map[string]any{"agentName": "clearml", "configure": "clearml-init",
	"install": "pip install clearml", "packageName": "clearml"}

// maxDownloadItems bounds the rows of the app's CSV exports.
const maxDownloadItems = 50000

func (s *service) currentUser(ctx context.Context, c *rpc.Call, _ *empty) (*currentUserResponse, error) {
	u, err := userdom.Current(ctx, &s.d.Env, c.Identity)
	if err != nil {
		return nil, err
	}
	return &currentUserResponse{
		User: currentUser{ID: u.ID, Name: u.Name, GivenName: u.GivenName, FamilyName: u.FamilyName,
			Email: u.Email, Avatar: u.Avatar, Created: fromMillis(u.Created), CreatedInVersion: u.CreatedInVersion,
			Company: idName{c.Company(), c.Identity.CompanyName}, Role: c.Identity.Role},
		GettingStarted: gettingStarted,
		Settings:       map[string]any{"max_download_items": maxDownloadItems},
	}, nil
}
