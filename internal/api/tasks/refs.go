package tasks

import (
	"context"
	"errors"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

// refChecks says which references of a task to check.
type refChecks struct {
	parent, project, models bool
}

// checkRefs validates the references of t: a parent task of the company
// or public (400/101), a writable company project (400/401, 403/21), and
// existing input models (400/201). A project is always checked for
// writability when set.
func (s *service) checkRefs(ctx context.Context, q store.Querier, company string, t *store.Task, c refChecks) error {
	if c.parent && t.Parent != "" && !strings.HasPrefix(t.Parent, taskdom.DeletedPrefix) {
		if _, err := s.d.DB.Tasks().Get(ctx, q, t.Parent, domain.Visible(company)...); err != nil {
			return domain.NotFound(err, apierr.New(400, 101, "Invalid task id (invalid parent)").With("parent", t.Parent))
		}
	}
	if t.Project != "" {
		p, err := s.d.DB.Projects().Get(ctx, q, t.Project, domain.Visible(company)...)
		switch {
		case err == nil && p.Company == "":
			return apierr.NoWritePermission("public project: id=%s", t.Project)
		case err != nil && (c.project || !errors.Is(err, store.ErrNotFound)):
			return domain.NotFound(err, apierr.InvalidProjectID(t.Project))
		}
	}
	if c.models {
		var missing []string
		for _, m := range t.Models.Input {
			if _, err := s.d.DB.Models().Get(ctx, q, m.Model, domain.Visible(company)...); err != nil {
				missing = append(missing, m.Model)
			}
		}
		if len(missing) > 0 {
			return apierr.InvalidModelID(missing...)
		}
	}
	return nil
}
