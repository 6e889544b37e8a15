package users

import (
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

func fromMillis(ms int64) string { return jsonx.FromMillis(ms).Format() }

// userOut is a user as users.get_by_id answers it.
type userOut struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	GivenName  string `json:"given_name,omitempty"`
	FamilyName string `json:"family_name,omitempty"`
	Avatar     string `json:"avatar,omitempty"`
	Email      string `json:"email,omitempty"`
	Company    string `json:"company"`
	Role       string `json:"role"`
	Created    string `json:"created"`
}

func toWire(u store.User) *userOut {
	return &userOut{ID: u.ID, Name: u.Name, GivenName: u.GivenName, FamilyName: u.FamilyName, Avatar: u.Avatar,
		Email: u.Email, Company: u.Company, Role: u.Role, Created: fromMillis(u.Created)}
}
