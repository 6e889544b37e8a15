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

// Administration of users (auth.create_user, auth.edit_user, users.delete).
// The endpoints admit privileged roles only; these rules hold on their own
// too:
//
//   - only system, root and admin administer users;
//   - only system and root give the roles system and root;
//   - an admin manages the users of its own company only, and never a
//     system or root user (it may not lower, raise or delete one).

// NewUser is the input of auth.create_user.
type NewUser struct {
	Name, Company, Role, Email string
	GivenName, FamilyName      string
	Avatar                     string
}

// systemRole is a role that reaches every company.
func systemRole(role string) bool { return role == RoleSystem || role == RoleRoot }

// checkAdministers refuses a caller whose role does not administer users.
func checkAdministers(caller *Identity) error {
	if !IsPrivileged(caller.Role) {
		return apierr.RoleNotAllowed(caller.Role, Privileged)
	}
	return nil
}

// checkGrant refuses giving role system or root to a caller not itself
// system or root.
func checkGrant(caller *Identity, role string) error {
	if systemRole(role) && !systemRole(caller.Role) {
		return apierr.AdministrationNotAllowed(caller.Role, "only system and root may grant role "+role)
	}
	return nil
}

// administeredUser loads the user a caller changes or deletes: system and
// root reach any user, an admin only the non-system users of its company.
// A user of another company is an unknown user to an admin (its existence
// is not told).
func administeredUser(ctx context.Context, env *domain.Env, caller *Identity, user string) (store.User, error) {
	u, err := env.DB.GetUser(ctx, user)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return u, err
	}
	if err != nil || (!systemRole(caller.Role) && u.Company != caller.CompanyID) {
		return u, apierr.InvalidUserID(user)
	}
	if !systemRole(caller.Role) && systemRole(u.Role) {
		return u, apierr.AdministrationNotAllowed(caller.Role, "user has role "+u.Role).With("user", user)
	}
	return u, nil
}

// CheckDeletable refuses deleting user unless caller administers it (for
// users.delete).
func CheckDeletable(ctx context.Context, env *domain.Env, caller *Identity, user string) error {
	if err := checkAdministers(caller); err != nil {
		return err
	}
	_, err := administeredUser(ctx, env, caller, user)
	return err
}

// CreateUser adds a user (without credentials) and returns its id.
func CreateUser(ctx context.Context, env *domain.Env, caller *Identity, u NewUser) (string, error) {
	if err := checkAdministers(caller); err != nil {
		return "", err
	}
	if u.Role == "" {
		u.Role = RoleUser
	}
	if !ValidRole(u.Role) {
		return "", apierr.Validation("role", "must be one of %v", allRoles)
	}
	if err := checkGrant(caller, u.Role); err != nil {
		return "", err
	}
	if !systemRole(caller.Role) && u.Company != caller.CompanyID {
		return "", apierr.AdministrationNotAllowed(caller.Role, "cannot create users in another company").With("company", u.Company)
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

// CompanyRoles are the roles an admin may give: every role but the ones
// reaching across companies.
var CompanyRoles = []string{RoleAdmin, RoleSuperuser, RoleUser, RoleAnnotator, RoleGuest}

var allRoles = []string{RoleSystem, RoleRoot, RoleAdmin, RoleSuperuser, RoleUser, RoleAnnotator, RoleGuest}

// EditUser changes the role of a user. A changed role moves the user's
// token generation on: the tokens it holds stop working (principal.go).
func EditUser(ctx context.Context, env *domain.Env, caller *Identity, user, role string) (*domain.Update, error) {
	if err := checkAdministers(caller); err != nil {
		return nil, err
	}
	if role != "" && !slices.Contains(allRoles, role) {
		return nil, apierr.Validation("role", "must be one of %v", allRoles)
	}
	if err := checkGrant(caller, role); err != nil {
		return nil, err
	}
	u, err := administeredUser(ctx, env, caller, user)
	if err != nil {
		return nil, err
	}
	fields := map[string]any{}
	if role == "" || role == u.Role {
		return &domain.Update{Fields: fields}, nil
	}
	if err := env.DB.SetUserRole(ctx, u, role); err != nil {
		return nil, domain.NotFound(err, apierr.InvalidUserID(user))
	}
	fields["role"] = role
	return &domain.Update{Updated: 1, Fields: fields}, nil
}
