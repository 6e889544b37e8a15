package projects

import (
	"context"
	"errors"
	"strings"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// EnsureReportsFolder finds or creates the hidden ".reports" project
// under the project named name ("" = at the root; a name already ending
// in ".reports" is that folder). Its missing ancestors are created as
// ordinary projects.
func EnsureReportsFolder(ctx context.Context, env *domain.Env, q store.Querier, company, user, name string) (*store.Project, error) {
	segs := store.SplitProjectName(name)
	if len(segs) == 0 || segs[len(segs)-1] != ReportsFolder {
		segs = append(segs, ReportsFolder)
	}
	if _, err := normaliseName(strings.Join(segs, "/")); err != nil {
		return nil, err
	}
	p, err := env.DB.ProjectByName(ctx, q, strings.Join(segs, "/"), company)
	if err == nil {
		return p, nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	parent, err := EnsurePath(ctx, env, q, company, user, segs[:len(segs)-1])
	if err != nil {
		return nil, err
	}
	p = newProject(env, company, user, segs, parent)
	p.Description = "Reports project"
	p.SystemTags = domain.SortedTags([]string{HiddenTag, ReportsTag})
	if err := env.DB.Projects().Insert(ctx, q, p); err != nil {
		return nil, uniqueErr(err, p.Name)
	}
	return p, nil
}

// DropEmptyReportsFolder deletes a ".reports" project that no task is in
// any more (after its last report moved away or was deleted).
func DropEmptyReportsFolder(ctx context.Context, env *domain.Env, q store.Querier, id string) error {
	if id == "" {
		return nil
	}
	p, err := env.DB.Projects().Get(ctx, q, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil || p.Basename != ReportsFolder {
		return err
	}
	n, err := env.DB.CountTasksByProject(ctx, q, store.ContentScope{Companies: domain.Visible(p.Company), Projects: []string{id}})
	if err != nil || n[id] > 0 {
		return err
	}
	_, err = env.DB.DeleteProjects(ctx, q, []string{id})
	return err
}
