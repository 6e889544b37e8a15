package models

import (
	"context"
	"errors"
	"strings"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

// patch holds the writable fields of edit and update; nil (absent or
// null) leaves a field alone.
type patch struct {
	Name       *string           `json:"name"`
	Comment    *string           `json:"comment"`
	URI        *string           `json:"uri"`
	Project    *string           `json:"project"`
	Task       *string           `json:"task"`
	Tags       *[]string         `json:"tags"`
	SystemTags *[]string         `json:"system_tags"`
	Ready      *bool             `json:"ready"`
	Metadata   api.Metadata      `json:"metadata"`
	Iteration  *int64            `json:"iteration"`
	Parent     *string           `json:"parent"`
	Framework  *string           `json:"framework"`
	Design     *map[string]any   `json:"design"`
	Labels     *map[string]int64 `json:"labels"`
	UICache    *map[string]any   `json:"ui_cache"`
	Created    *jsonx.Time       `json:"created"`
}

func (p *patch) validate() error {
	if p.Tags != nil {
		if err := api.ValidateTags("tags", *p.Tags); err != nil {
			return err
		}
	}
	if p.SystemTags != nil {
		return api.ValidateTags("system_tags", *p.SystemTags)
	}
	return nil
}

type editRequest struct {
	Model string `json:"model" required:"true"`
	patch
}

func (r *editRequest) Validate() error { return r.patch.validate() }

// updateRequest is models.update: the reference writes name, project,
// created, comment, tags, system_tags, uri, ui_cache and metadata; the
// seeds add ready and task, which are written too when given.
type updateRequest struct {
	Model string `json:"model" required:"true"`
	patch
}

func (r *updateRequest) Validate() error {
	// Not among update's fields: ignored as the reference does.
	r.Parent, r.Framework, r.Design, r.Labels = nil, nil, nil, nil
	return r.patch.validate()
}

func (s *service) edit(ctx context.Context, c *rpc.Call, req *editRequest) (*api.UpdateResult, error) {
	req.UICache, req.Created = nil, nil // not edit fields
	return s.patchModel(ctx, c, req.Model, &req.patch)
}

func (s *service) update(ctx context.Context, c *rpc.Call, req *updateRequest) (*api.UpdateResult, error) {
	return s.patchModel(ctx, c, req.Model, &req.patch)
}

// patchModel applies p to a company model in one transaction.
func (s *service) patchModel(ctx context.Context, c *rpc.Call, id string, p *patch) (*api.UpdateResult, error) {
	var res *api.UpdateResult
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		m, err := s.loadWritable(ctx, q, c.Company(), id)
		if err != nil {
			return err
		}
		res, err = s.applyPatch(ctx, q, c, m, p)
		return err
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// applyPatch writes p into m (loaded for update in q) and saves it. A
// given iteration raises last_iteration of the model's (or given) task.
func (s *service) applyPatch(ctx context.Context, q store.Querier, c *rpc.Call, m *store.Model, p *patch) (*api.UpdateResult, error) {
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
	if p.Project != nil {
		if *p.Project != "" {
			if err := s.checkProject(ctx, q, *p.Project, domain.Visible(c.Company())...); err != nil {
				return nil, err
			}
		}
		m.Project, fields["project"] = *p.Project, *p.Project
	}
	if p.Task != nil {
		if *p.Task != "" {
			if err := s.checkTask(ctx, q, c.Company(), *p.Task); err != nil {
				return nil, err
			}
		}
		m.Task, fields["task"] = *p.Task, *p.Task
	}
	if p.Parent != nil {
		if *p.Parent != "" {
			if err := s.checkParent(ctx, q, c.Company(), *p.Parent); err != nil {
				return nil, err
			}
		}
		m.Parent, fields["parent"] = *p.Parent, *p.Parent
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
	if p.Metadata.Set {
		m.Metadata, fields["metadata"], data = p.Metadata.Items, p.Metadata.Items, true
	}
	if p.Iteration != nil {
		if err := s.raiseTaskIteration(ctx, q, c, m.Task, *p.Iteration); err != nil {
			return nil, err
		}
	}
	if len(fields) == 0 {
		return &api.UpdateResult{Updated: 0, Fields: map[string]any{}}, nil
	}
	s.touch(m, c.User(), data)
	fields["last_change"], fields["last_changed_by"] = m.LastChange, m.LastChangedBy
	if data {
		fields["last_update"] = m.LastUpdate
	}
	m.Normalize()
	if err := s.d.DB.Models().Update(ctx, q, m); err != nil {
		return nil, err
	}
	return &api.UpdateResult{Updated: 1, Fields: fields}, nil
}

// raiseTaskIteration lifts last_iteration of a company task to at least
// iter; a task that is gone or not the caller's is skipped.
func (s *service) raiseTaskIteration(ctx context.Context, q store.Querier, c *rpc.Call, taskID string, iter int64) error {
	if taskID == "" || strings.HasPrefix(taskID, taskdom.DeletedPrefix) {
		return nil
	}
	t, err := s.d.DB.Tasks().GetForUpdate(ctx, q, taskID, c.Company())
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	now := s.d.Time()
	t.Normalize()
	t.LastIteration = max(t.LastIteration, iter)
	t.LastUpdate, t.LastChange, t.LastChangedBy = now, now, c.User()
	return s.d.DB.Tasks().Update(ctx, q, t)
}
