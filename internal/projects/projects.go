// Package projects holds the rules of projects: a hierarchy named by "/"
// paths (create, rename, move, merge, publish) and the reads over the
// tasks and models inside it (statistics, parents, hyper parameters,
// metrics). Functions take a *domain.Env and return domain results and
// apierr errors; deletion lives in delete.go.
package projects

import (
	"context"
	"errors"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// MaxDepth is the deepest project path allowed.
const MaxDepth = 10

// LoadWritable loads a project of company for writing: public projects
// are read-only (403), unknown ids 400/401.
func LoadWritable(ctx context.Context, env *domain.Env, q store.Querier, company, id string) (*store.Project, error) {
	p, err := env.DB.Projects().GetForUpdate(ctx, q, id, domain.Visible(company)...)
	if err != nil {
		return nil, domain.NotFound(err, apierr.InvalidProjectID(id))
	}
	if p.Company == "" {
		return nil, apierr.NoWritePermission("public project: id=%s", id)
	}
	return p, nil
}

// nameTaken is the error of a project name already in use.
func nameTaken(name string) error {
	return apierr.NotUnique("Project with the same name already exists: name=%s", name)
}

// uniqueErr turns a unique-constraint failure of a write into nameTaken.
func uniqueErr(err error, name string) error {
	if errors.Is(err, store.ErrDuplicate) {
		return nameTaken(name)
	}
	return err
}

// descendants loads every project under id in company.
func descendants(ctx context.Context, env *domain.Env, q store.Querier, company, id string) ([]*store.Project, error) {
	tree, err := env.DB.LoadProjectTree(ctx, q, company)
	if err != nil {
		return nil, err
	}
	return env.DB.Projects().GetMany(ctx, q, tree.Descendants(id))
}
