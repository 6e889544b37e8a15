package auth

import (
	"context"
	"errors"
	"fmt"

	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/store"
)

// CredentialsShownSetting marks that a key pair has been shown to an
// operator at least once (on first start or by `trove credentials create`).
const CredentialsShownSetting = "credentials_shown"

// NewKey creates a key pair for the user of the default company with this
// name. A missing user is created: "admin" as the admin user, any other
// name as a user with the user role.
func NewKey(ctx context.Context, db *store.DB, userName string) (*Generated, error) {
	if userName == "" {
		userName = "admin"
	}
	u := FixedUser{Name: userName, Company: DefaultCompanyID, Role: RoleUser}
	found, err := db.UserByName(ctx, DefaultCompanyID, userName)
	switch {
	case err == nil:
		u.ID, u.Role = found.ID, found.Role
	case !errors.Is(err, store.ErrNotFound):
		return nil, fmt.Errorf("look up user %q: %w", userName, err)
	case userName == "admin":
		u.ID, u.Role = AdminUserID, RoleAdmin
	default:
		u.ID = ids.New()
	}
	if err := db.EnsureCompany(ctx, store.Company{ID: DefaultCompanyID, Name: DefaultCompanyName}); err != nil {
		return nil, fmt.Errorf("default company: %w", err)
	}
	g := &Generated{AccessKey: RandomKey(30, false), SecretKey: RandomKey(50, true)}
	u.AccessKey, u.SecretKey = g.AccessKey, g.SecretKey
	if _, err := putUser(ctx, db, u); err != nil {
		return nil, err
	}
	return g, nil
}

// MarkShown records that a key pair has been shown.
func MarkShown(ctx context.Context, db *store.DB, when string) error {
	_, err := db.SetSettingIfAbsent(ctx, CredentialsShownSetting, when)
	return err
}

// KeyEverShown reports whether a key pair has ever been shown.
func KeyEverShown(ctx context.Context, db *store.DB) (bool, error) {
	v, err := db.GetSetting(ctx, CredentialsShownSetting)
	return v != "", err
}
