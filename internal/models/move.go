package models

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/projects"
	"github.com/trove-ml/trove/internal/store"
)

// Move puts company models under a project: project (an id; "" and no
// projectName = the root) or projectName (found or created with its
// parents). All models must be the caller's, else nothing moves. It
// returns the destination project ("" = the root).
func Move(ctx context.Context, env *domain.Env, a Actor, ids []string, project, projectName string) (string, error) {
	dest := ""
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		switch {
		case project != "":
			p, err := env.DB.Projects().Get(ctx, q, project, a.Company)
			if err != nil {
				return domain.NotFound(err, apierr.InvalidProjectID(project))
			}
			dest = p.ID
		case projectName != "":
			p, err := projects.EnsureByName(ctx, env, q, a.Company, a.User, projectName)
			if err != nil {
				return err
			}
			dest = p.ID
		}
		now := env.Time()
		_, err := writeEachIn(ctx, env, q, a.Company, ids, func(m *store.Model) {
			m.Project = dest
			touch(m, a.User, now, false)
		})
		return err
	})
	return dest, err
}
