package tasks

import (
	"context"

	"github.com/trove-ml/trove/internal/domain"
)

// Types lists the task types in use among the tasks the company sees
// (its own and public ones), limited to projects when any are given,
// sorted.
func Types(ctx context.Context, d *domain.Env, company string, projects []string) ([]string, error) {
	return d.DB.TaskTypes(ctx, d.DB.Read(), domain.Visible(company), projects)
}
