package tasks

import (
	"context"
	"errors"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// RefChecks says which references of a task to check.
type RefChecks struct {
	Parent, Project, Models bool
}

// AllRefs checks every reference (create, validate).
var AllRefs = RefChecks{Parent: true, Project: true, Models: true}

// CheckRefs validates the references of t: a parent task of the company
// or public (400/101), a writable company project (400/401, 403/21), and
// existing input models (400/201). A project is always checked for
// writability when set.
func CheckRefs(ctx context.Context, d *domain.Env, q store.Querier, company string, t *store.Task, c RefChecks) error {
	if c.Parent && t.Parent != "" && !strings.HasPrefix(t.Parent, DeletedPrefix) {
		if _, err := d.DB.Tasks().Get(ctx, q, t.Parent, domain.Visible(company)...); err != nil {
			return domain.NotFound(err, apierr.InvalidParentTask(t.Parent))
		}
	}
	if t.Project != "" {
		p, err := d.DB.Projects().Get(ctx, q, t.Project, domain.Visible(company)...)
		switch {
		case err == nil && p.Company == "":
			return apierr.NoWritePermission("public project: id=%s", t.Project)
		case err != nil && (c.Project || !errors.Is(err, store.ErrNotFound)):
			return domain.NotFound(err, apierr.InvalidProjectID(t.Project))
		}
	}
	if c.Models {
		var missing []string
		for _, m := range t.Models.Input {
			if _, err := d.DB.Models().Get(ctx, q, m.Model, domain.Visible(company)...); err != nil {
				missing = append(missing, m.Model)
			}
		}
		if len(missing) > 0 {
			return apierr.InvalidModelID(missing...)
		}
	}
	return nil
}
