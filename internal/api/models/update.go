package models

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/rpc"

	modeldom "github.com/trove-ml/trove/internal/models"
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

func (p *patch) validate() error { return api.ValidateTagPatch(p.Tags, p.SystemTags) }

// domainPatch is the patch as the models domain takes it.
func (p *patch) domainPatch() *modeldom.Patch {
	return &modeldom.Patch{Name: p.Name, Comment: p.Comment, URI: p.URI, Project: p.Project, Task: p.Task,
		Tags: p.Tags, SystemTags: p.SystemTags, Ready: p.Ready, Metadata: p.Metadata.Items, MetadataSet: p.Metadata.Set,
		Iteration: p.Iteration, Parent: p.Parent, Framework: p.Framework, Design: p.Design, Labels: p.Labels,
		UICache: p.UICache, Created: p.Created}
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

func (s *service) patchModel(ctx context.Context, c *rpc.Call, id string, p *patch) (*api.UpdateResult, error) {
	res, err := modeldom.Update(ctx, &s.d.Env, actor(c), id, p.domainPatch())
	if err != nil {
		return nil, err
	}
	return api.Updated(res), nil
}
