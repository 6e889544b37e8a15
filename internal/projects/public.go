package projects

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// SetPublic makes company projects public (or public ones it published
// private again) and returns how many changed; see domain.SetPublic.
func SetPublic(ctx context.Context, env *domain.Env, company string, ids []string, public bool) (int, error) {
	return domain.SetPublic(ctx, env, env.DB.Projects(), company, ids, public, domain.Publicity[*store.Project]{
		NotFound:  func(ids ...string) error { return apierr.InvalidProjectID(ids...) },
		Duplicate: func(p *store.Project) error { return nameTaken(p.Name) },
	})
}
