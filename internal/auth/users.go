package auth

import (
	"context"
	"errors"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// CurrentUser loads the calling user; one not (or no longer) stored is
// 400 invalid user.
func CurrentUser(ctx context.Context, env *domain.Env, id string) (store.User, error) {
	u, err := env.DB.GetUser(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return store.User{}, apierr.InvalidUser(id)
	}
	return u, err
}

// CompanyUsers counts a company's users and lists its owners
// (organization.get_user_companies).
func CompanyUsers(ctx context.Context, env *domain.Env, company string) (int, []store.User, error) {
	n, err := env.DB.CountCompanyUsers(ctx, company)
	if err != nil {
		return 0, nil, err
	}
	owners, err := env.DB.CompanyOwners(ctx, company)
	if err != nil {
		return 0, nil, err
	}
	return n, owners, nil
}
