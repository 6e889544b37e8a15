package projects

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/store"
)

// CreateInput is a new project of projects.create.
type CreateInput struct {
	Company, User            string
	Name                     string
	Description              string
	Tags, SystemTags         []string
	DefaultOutputDestination *string
}

// Create adds a project (and its missing ancestors) and returns its id. A
// name taken in the company, or by a public project, is refused.
func Create(ctx context.Context, env *domain.Env, in CreateInput) (string, error) {
	segs, err := normaliseName(in.Name)
	if err != nil {
		return "", err
	}
	var id string
	err = env.DB.Tx(ctx, func(q store.Querier) error {
		full := strings.Join(segs, "/")
		if _, err := env.DB.ProjectByName(ctx, q, full, in.Company); err == nil {
			return nameTaken(full)
		} else if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if _, err := env.DB.ProjectByName(ctx, q, full, ""); err == nil {
			return apierr.PublicProjectExists(full)
		}
		parent, err := EnsurePath(ctx, env, q, in.Company, in.User, segs[:len(segs)-1])
		if err != nil {
			return err
		}
		p := newProject(env, in.Company, in.User, segs, parent)
		p.Description = in.Description
		p.Tags, p.SystemTags = domain.SortedTags(in.Tags), domain.SortedTags(in.SystemTags)
		p.DefaultOutputDestination = in.DefaultOutputDestination
		if err := env.DB.Projects().Insert(ctx, q, p); err != nil {
			return uniqueErr(err, full)
		}
		id = p.ID
		return nil
	})
	return id, err
}

// newProject is a fresh project named by segs under parent (nil = root).
func newProject(env *domain.Env, company, user string, segs []string, parent *store.Project) *store.Project {
	now := env.Time()
	p := &store.Project{ID: ids.New(), Company: company, User: user, Name: strings.Join(segs, "/"),
		Basename: segs[len(segs)-1], Created: now, LastUpdate: now, Featured: 9999, Tags: []string{}, SystemTags: []string{}, Path: []string{}}
	if parent != nil {
		p.Parent = parent.ID
		p.Path = append(append([]string{}, parent.Path...), parent.ID)
	}
	return p
}

// normaliseName splits a full project name, dropping empty segments and
// refusing names without segments, too deep, or too short.
func normaliseName(name string) ([]string, error) {
	segs := store.SplitProjectName(name)
	if len(segs) == 0 {
		return nil, apierr.InvalidProjectName(name)
	}
	if len(segs) > MaxDepth {
		return nil, apierr.ProjectDepth(MaxDepth)
	}
	if full := strings.Join(segs, "/"); len([]rune(full)) < 3 {
		return nil, apierr.DataValidation("project name must be at least 3 characters: name=%s", full)
	}
	return segs, nil
}

// EnsurePath returns the project with the given path segments in the
// company, creating it and any missing ancestors. Empty segs return nil
// (the root). Parents' last_update is bumped.
func EnsurePath(ctx context.Context, env *domain.Env, q store.Querier, company, user string, segs []string) (*store.Project, error) {
	var parent *store.Project
	now := env.Time()
	for i := range segs {
		full := strings.Join(segs[:i+1], "/")
		p, err := env.DB.ProjectByName(ctx, q, full, company)
		switch {
		case errors.Is(err, store.ErrNotFound):
			p = newProject(env, company, user, segs[:i+1], parent)
			if err := env.DB.Projects().Insert(ctx, q, p); err != nil {
				return nil, fmt.Errorf("create project %s: %w", full, err)
			}
		case err != nil:
			return nil, err
		default:
			p.LastUpdate = now
			if err := env.DB.Projects().Update(ctx, q, p); err != nil {
				return nil, err
			}
		}
		parent = p
	}
	return parent, nil
}

// EnsureByName finds or creates the project with a full name, for
// operations that take a project_name (tasks.clone, tasks.move, models.move).
func EnsureByName(ctx context.Context, env *domain.Env, q store.Querier, company, user, name string) (*store.Project, error) {
	segs, err := normaliseName(name)
	if err != nil {
		return nil, err
	}
	return EnsurePath(ctx, env, q, company, user, segs)
}
