package auth

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// A user's own access keys (the web app's workspace settings): every
// operation acts on the caller's keys only, in the caller's company.

// NewCredentials is a key pair just created; its secret is shown once.
type NewCredentials struct {
	AccessKey string
	SecretKey string
	Label     string
}

// CreateCredentials makes a new key pair for the caller.
func CreateCredentials(ctx context.Context, env *domain.Env, id *Identity, label string) (*NewCredentials, error) {
	if _, err := env.DB.GetUser(ctx, id.UserID); err != nil {
		return nil, domain.NotFound(err, apierr.InvalidUserID(id.UserID))
	}
	c := &NewCredentials{AccessKey: RandomKey(30, false), SecretKey: RandomKey(50, true), Label: label}
	h, err := HashSecret(c.SecretKey)
	if err != nil {
		return nil, err
	}
	err = env.DB.PutCredential(ctx, store.Credential{AccessKey: c.AccessKey, SecretHash: h, UserID: id.UserID, Company: id.CompanyID, Label: label})
	return c, err
}

// Credentials lists the caller's keys, never their secrets.
func Credentials(ctx context.Context, env *domain.Env, id *Identity) ([]store.Credential, error) {
	return env.DB.UserCredentials(ctx, id.CompanyID, id.UserID)
}

// EditCredentials relabels one of the caller's keys.
func EditCredentials(ctx context.Context, env *domain.Env, id *Identity, key, label string) (int, error) {
	ok, err := env.DB.SetCredentialLabel(ctx, id.CompanyID, id.UserID, key, label)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, apierr.InvalidAccessKey(key)
	}
	return 1, nil
}

// RevokeCredentials deletes one of the caller's keys.
func RevokeCredentials(ctx context.Context, env *domain.Env, id *Identity, key string) (int, error) {
	ok, err := env.DB.DeleteCredential(ctx, id.CompanyID, id.UserID, key)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, apierr.InvalidUser(id.UserID).With("access_key", key)
	}
	return 1, nil
}
