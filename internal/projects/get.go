package projects

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// Get loads a project of company or a public one.
func Get(ctx context.Context, env *domain.Env, company, id string) (*store.Project, error) {
	p, err := env.DB.Projects().Get(ctx, env.DB.Read(), id, domain.Visible(company)...)
	if err != nil {
		return nil, domain.NotFound(err, apierr.InvalidProjectID(id))
	}
	return p, nil
}
