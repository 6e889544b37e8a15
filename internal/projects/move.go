package projects

import (
	"context"
	"slices"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// Move puts a company project (with its subtree) under the project named
// newLocation (found or created; nil or "" = top level) and returns the
// number of projects moved.
func Move(ctx context.Context, env *domain.Env, company, user, id string, newLocation *string) (int, error) {
	var moved int
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		p, err := LoadWritable(ctx, env, q, company, id)
		if err != nil {
			return err
		}
		loc := ""
		if newLocation != nil {
			loc = strings.Join(store.SplitProjectName(*newLocation), "/")
		}
		oldSegs := store.SplitProjectName(p.Name)
		if loc == strings.Join(oldSegs[:len(oldSegs)-1], "/") {
			return apierr.ProjectSameLocation()
		}
		if loc == p.Name || strings.HasPrefix(loc, p.Name+"/") {
			return apierr.ProjectUnderItself()
		}
		var parent *store.Project
		if loc != "" {
			if parent, err = EnsureByName(ctx, env, q, company, user, loc); err != nil {
				return err
			}
		}
		moved, err = reparent(ctx, env, q, company, p, parent)
		return err
	})
	return moved, err
}

// reparent moves p (and its subtree) under parent (nil = top level). It
// returns the number of projects moved.
func reparent(ctx context.Context, env *domain.Env, q store.Querier, company string, p, parent *store.Project) (int, error) {
	desc, err := descendants(ctx, env, q, company, p.ID)
	if err != nil {
		return 0, err
	}
	oldName, oldPath := p.Name, p.Path
	newPath := []string{}
	newName := p.Basename
	if parent != nil {
		newPath = append(append(newPath, parent.Path...), parent.ID)
		newName = parent.Name + "/" + p.Basename
	}
	deepest := 0
	for _, d := range desc {
		deepest = max(deepest, len(d.Path)-len(oldPath))
	}
	if len(newPath)+deepest+1 > MaxDepth {
		return 0, apierr.ProjectDepth(MaxDepth)
	}
	p.Name, p.Path, p.Parent = newName, newPath, ""
	if parent != nil {
		p.Parent = parent.ID
	}
	p.LastUpdate = env.Time()
	if err := env.DB.Projects().Update(ctx, q, p); err != nil {
		return 0, uniqueErr(err, p.Name)
	}
	for _, d := range desc {
		d.Name = newName + strings.TrimPrefix(d.Name, oldName)
		d.Path = append(append([]string{}, newPath...), d.Path[len(oldPath):]...)
		if err := env.DB.Projects().Update(ctx, q, d); err != nil {
			return 0, uniqueErr(err, d.Name)
		}
	}
	return 1 + len(desc), nil
}

// Merged counts what a merge moved.
type Merged struct {
	Entities, Projects int
}

// Merge moves the non-archived tasks and models of a company project into
// another (dst "" = no project), its children under it, and deletes the
// emptied project.
func Merge(ctx context.Context, env *domain.Env, company, id, dst string) (*Merged, error) {
	if id == dst {
		return nil, apierr.ProjectSameLocation()
	}
	res := &Merged{}
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		src, err := LoadWritable(ctx, env, q, company, id)
		if err != nil {
			return err
		}
		var to *store.Project
		if dst != "" {
			if to, err = LoadWritable(ctx, env, q, company, dst); err != nil {
				return err
			}
			if slices.Contains(to.Path, src.ID) {
				return apierr.ProjectMergeIntoChild()
			}
		}
		for _, table := range []string{"tasks", "models"} {
			n, err := env.DB.MoveActiveContents(ctx, q, table, domain.Visible(company), src.ID, dst)
			if err != nil {
				return err
			}
			res.Entities += n
		}
		children, err := env.DB.ProjectChildren(ctx, q, src.ID)
		if err != nil {
			return err
		}
		for _, ch := range children {
			if _, err := reparent(ctx, env, q, company, ch, to); err != nil {
				return err
			}
		}
		res.Projects = len(children)
		_, err = env.DB.Projects().Delete(ctx, q, src.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}
