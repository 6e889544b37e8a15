package models

import (
	"context"
	"errors"
	"strings"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

// Patch holds the writable fields of edit and update; nil leaves a field
// alone.
type Patch struct {
	Name       *string
	Comment    *string
	URI        *string
	Project    *string
	Task       *string
	Tags       *[]string
	SystemTags *[]string
	Ready      *bool
	// Metadata replaces all metadata when MetadataSet.
	Metadata    map[string]*store.MetadataItem
	MetadataSet bool
	Iteration   *int64
	Parent      *string
	Framework   *string
	Design      *map[string]any
	Labels      *map[string]int64
	UICache     *map[string]any
	Created     *jsonx.Time
}

// Update applies p to a company model in one transaction.
func Update(ctx context.Context, env *domain.Env, a Actor, id string, p *Patch) (*domain.Update, error) {
	var res *domain.Update
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		m, err := LoadWritable(ctx, env, q, a.Company, id)
		if err != nil {
			return err
		}
		res, err = applyPatch(ctx, env, q, a, m, p)
		return err
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// applyPatch writes p into m (loaded for update in q) and saves it. A
// given iteration raises last_iteration of the model's task.
func applyPatch(ctx context.Context, env *domain.Env, q store.Querier, a Actor, m *store.Model, p *Patch) (*domain.Update, error) {
	fields := map[string]any{}
	data := false // a change that moves last_update
	if p.Task != nil && strings.HasPrefix(*p.Task, taskdom.DeletedPrefix) {
		p.Task = nil // a reference to a deleted task is not written back
	}
	if p.Name != nil {
		name, err := cleanName(*p.Name)
		if err != nil {
			return nil, err
		}
		m.Name, fields["name"] = name, name
	}
	if p.Comment != nil {
		m.Comment, fields["comment"] = p.Comment, *p.Comment
	}
	if err := applyRefs(ctx, env, q, a, m, p, fields); err != nil {
		return nil, err
	}
	if p.Created != nil && !p.Created.IsZero() {
		m.Created, fields["created"] = *p.Created, *p.Created
	}
	if p.UICache != nil {
		m.UICache, fields["ui_cache"] = *p.UICache, *p.UICache
	}
	if p.URI != nil {
		m.URI, fields["uri"], data = *p.URI, *p.URI, true
		if p.UICache == nil {
			// New weights: the UI's cached view of the old ones is stale.
			m.UICache, fields["ui_cache"] = map[string]any{}, map[string]any{}
		}
	}
	if p.Framework != nil {
		m.Framework, fields["framework"], data = p.Framework, *p.Framework, true
	}
	if p.Design != nil {
		m.Design, fields["design"], data = *p.Design, *p.Design, true
	}
	if p.Labels != nil {
		m.Labels, fields["labels"], data = *p.Labels, *p.Labels, true
	}
	if p.Ready != nil {
		m.Ready, fields["ready"], data = *p.Ready, *p.Ready, true
	}
	if p.Tags != nil {
		m.Tags = domain.SortedTags(*p.Tags)
		fields["tags"], data = m.Tags, true
	}
	if p.SystemTags != nil {
		m.SystemTags = domain.SortedTags(*p.SystemTags)
		fields["system_tags"], data = m.SystemTags, true
	}
	if p.MetadataSet {
		m.Metadata, fields["metadata"], data = p.Metadata, p.Metadata, true
	}
	if p.Iteration != nil {
		if err := raiseTaskIteration(ctx, env, q, a, m.Task, *p.Iteration); err != nil {
			return nil, err
		}
	}
	if len(fields) == 0 {
		return &domain.Update{Updated: 0, Fields: map[string]any{}}, nil
	}
	touch(m, a.User, env.Time(), data)
	fields["last_change"], fields["last_changed_by"] = m.LastChange, m.LastChangedBy
	if data {
		fields["last_update"] = m.LastUpdate
	}
	m.Normalize()
	if err := env.DB.Models().Update(ctx, q, m); err != nil {
		return nil, err
	}
	return &domain.Update{Updated: 1, Fields: fields}, nil
}

// applyRefs writes the project, task and parent of p, each checked.
func applyRefs(ctx context.Context, env *domain.Env, q store.Querier, a Actor, m *store.Model, p *Patch, fields map[string]any) error {
	if p.Project != nil {
		if *p.Project != "" {
			if err := checkProject(ctx, env, q, *p.Project, domain.Visible(a.Company)...); err != nil {
				return err
			}
		}
		m.Project, fields["project"] = *p.Project, *p.Project
	}
	if p.Task != nil {
		if *p.Task != "" {
			if err := checkTask(ctx, env, q, a.Company, *p.Task); err != nil {
				return err
			}
		}
		m.Task, fields["task"] = *p.Task, *p.Task
	}
	if p.Parent != nil {
		if *p.Parent != "" {
			if err := checkParent(ctx, env, q, a.Company, *p.Parent); err != nil {
				return err
			}
		}
		m.Parent, fields["parent"] = *p.Parent, *p.Parent
	}
	return nil
}

// raiseTaskIteration lifts last_iteration of a company task to at least
// iter; a task that is gone or not the caller's is skipped.
func raiseTaskIteration(ctx context.Context, env *domain.Env, q store.Querier, a Actor, taskID string, iter int64) error {
	if taskID == "" || strings.HasPrefix(taskID, taskdom.DeletedPrefix) {
		return nil
	}
	t, err := env.DB.Tasks().GetForUpdate(ctx, q, taskID, a.Company)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	now := env.Time()
	t.Normalize()
	t.LastIteration = max(t.LastIteration, iter)
	t.LastUpdate, t.LastChange, t.LastChangedBy = now, now, a.User
	return env.DB.Tasks().Update(ctx, q, t)
}
