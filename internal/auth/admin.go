package auth

import (
	"context"
	"errors"
	"slices"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/store"
)

// Administration of a company's users (auth.create_user, auth.edit_user):
// the endpoints admit only privileged roles; these functions keep an
// admin inside its own company.

// NewUser is the input of auth.create_user.
type NewUser struct {
	Name, Company, Role, Email string
	GivenName, FamilyName      string
	Avatar                     string
}

// systemRole is a role that reaches every company.
func systemRole(role string) bool { return role == RoleSystem || role == RoleRoot }

// CreateUser adds a user (without credentials) and returns its id.
func CreateUser(ctx context.Context, env *domain.Env, caller *Identity, u NewUser) (string, error) {
	if !systemRole(caller.Role) && u.Company != caller.CompanyID {
		return "", apierr.InvalidID("cannot create user in another company", "company", u.Company)
	}
	if u.Role == "" {
		u.Role = RoleUser
	}
	if !ValidRole(u.Role) {
		return "", apierr.Validation("role", "must be one of %v", allRoles)
	}
	if _, err := env.DB.GetCompany(ctx, u.Company); err != nil {
		return "", domain.NotFound(err, apierr.InvalidID("invalid company", "company", u.Company))
	}
	rec := store.User{ID: ids.New(), Company: u.Company, Name: u.Name, Role: u.Role, Email: u.Email,
		GivenName: u.GivenName, FamilyName: u.FamilyName, Avatar: u.Avatar, Created: env.Now().UnixMilli(),
		CreatedInVersion: ServerVersion}
	if err := env.DB.InsertUser(ctx, rec); err != nil {
		if errors.Is(err, store.ErrUserExists) {
			return "", apierr.UserIDExists(rec.ID)
		}
		return "", err
	}
	return rec.ID, nil
}

// CompanyRoles are the roles auth.edit_user may give: every role but the
// ones reaching across companies.
var CompanyRoles = []string{RoleAdmin, RoleSuperuser, RoleUser, RoleAnnotator, RoleGuest}

var allRoles = []string{RoleSystem, RoleRoot, RoleAdmin, RoleSuperuser, RoleUser, RoleAnnotator, RoleGuest}

// EditUser changes the role of a user of the caller's company.
func EditUser(ctx context.Context, env *domain.Env, company, user, role string) (*domain.Update, error) {
	if role != "" && !slices.Contains(CompanyRoles, role) {
		return nil, apierr.Validation("role", "must be one of %v", CompanyRoles)
	}
	u, err := env.DB.GetUser(ctx, user)
	if err != nil || u.Company != company {
		return nil, domain.NotFound(store.ErrNotFound, apierr.InvalidUserID(user))
	}
	fields := map[string]any{}
	if role == "" || role == u.Role {
		return &domain.Update{Fields: fields}, nil
	}
	u.Role, fields["role"] = role, role
	if err := env.DB.SaveUser(ctx, u); err != nil {
		return nil, domain.NotFound(err, apierr.InvalidUserID(user))
	}
	return &domain.Update{Updated: 1, Fields: fields}, nil
}
