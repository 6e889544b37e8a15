package projects

import (
	"context"
	"errors"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// Patch is a projects.update as the request spells it (the handler decodes
// into it): nil fields are left alone.
type Patch struct {
	Name                     *string   `json:"name"`
	Description              *string   `json:"description"`
	Tags                     *[]string `json:"tags"`
	SystemTags               *[]string `json:"system_tags"`
	DefaultOutputDestination *string   `json:"default_output_destination"`
}

// MinBasenameLength is the shortest last segment a rename may give a
// project (as the reference from 2.2: a rename to "team/ab" or to blanks
// is refused).
const MinBasenameLength = 3

// Update applies p to a company project. A new name may change the last
// segment only; descendants are renamed to follow.
func Update(ctx context.Context, env *domain.Env, company, id string, p Patch) (*domain.Update, error) {
	fields := map[string]any{}
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		pr, err := LoadWritable(ctx, env, q, company, id)
		if err != nil {
			return err
		}
		if p.Name != nil {
			segs, err := normaliseName(*p.Name)
			if err != nil {
				return err
			}
			if base := segs[len(segs)-1]; len([]rune(base)) < MinBasenameLength {
				return apierr.Validation("name", "project name cannot be blank or shorter than %d characters after its last '/': %q", MinBasenameLength, base)
			}
			newName := strings.Join(segs, "/")
			oldSegs := store.SplitProjectName(pr.Name)
			if strings.Join(segs[:len(segs)-1], "/") != strings.Join(oldSegs[:len(oldSegs)-1], "/") {
				return apierr.ProjectPathChange()
			}
			if newName != pr.Name {
				if err := rename(ctx, env, q, company, pr, newName); err != nil {
					return err
				}
				fields["name"], fields["basename"] = pr.Name, pr.Basename
			}
		}
		if p.Description != nil {
			pr.Description = *p.Description
			fields["description"] = pr.Description
		}
		if p.Tags != nil {
			pr.Tags = domain.SortedTags(*p.Tags)
			fields["tags"] = pr.Tags
		}
		if p.SystemTags != nil {
			pr.SystemTags = domain.SortedTags(*p.SystemTags)
			fields["system_tags"] = pr.SystemTags
		}
		if p.DefaultOutputDestination != nil {
			pr.DefaultOutputDestination = p.DefaultOutputDestination
			fields["default_output_destination"] = *pr.DefaultOutputDestination
		}
		pr.LastUpdate = env.Time()
		fields["last_update"] = pr.LastUpdate
		return env.DB.Projects().Update(ctx, q, pr)
	})
	if err != nil {
		return nil, err
	}
	return &domain.Update{Updated: 1, Fields: fields}, nil
}

// rename gives p a new full name and renames its descendants to follow.
func rename(ctx context.Context, env *domain.Env, q store.Querier, company string, p *store.Project, newName string) error {
	if _, err := env.DB.ProjectByName(ctx, q, newName, company); err == nil {
		return nameTaken(newName)
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	oldName := p.Name
	segs := store.SplitProjectName(newName)
	p.Name, p.Basename = newName, segs[len(segs)-1]
	desc, err := descendants(ctx, env, q, company, p.ID)
	if err != nil {
		return err
	}
	for _, d := range desc {
		d.Name = newName + strings.TrimPrefix(d.Name, oldName)
		if err := env.DB.Projects().Update(ctx, q, d); err != nil {
			return uniqueErr(err, d.Name)
		}
	}
	return nil
}
