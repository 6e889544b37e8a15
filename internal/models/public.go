package models

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

// SetPublic makes company models public (or public ones it published
// private again) and returns how many changed; see domain.SetPublic.
func SetPublic(ctx context.Context, env *domain.Env, a Actor, ids []string, public bool) (int, error) {
	return domain.SetPublic(ctx, env, env.DB.Models(), a.Company, ids, public, domain.Publicity[*store.Model]{
		NotFound: func(ids ...string) error { return apierr.InvalidModelID(ids...) },
		Touch:    func(m *store.Model, now jsonx.Time) { touch(m, a.User, now, false) },
	})
}
