package models

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"

	modeldom "github.com/trove-ml/trove/internal/models"
)

type createRequest struct {
	Name      string           `json:"name" required:"true"`
	URI       string           `json:"uri" required:"true"`
	Comment   *string          `json:"comment"`
	Design    map[string]any   `json:"design"`
	Framework *string          `json:"framework"`
	Labels    map[string]int64 `json:"labels"`
	Parent    string           `json:"parent"`
	Project   string           `json:"project"`
	Public    bool             `json:"public"`
	// Ready defaults to false, as the seeds say (the reference: true).
	Ready      bool           `json:"ready"`
	Tags       []string       `json:"tags"`
	SystemTags []string       `json:"system_tags"`
	Task       string         `json:"task"`
	UICache    map[string]any `json:"ui_cache"`
	Metadata   api.Metadata   `json:"metadata"`
}

func (r *createRequest) Validate() error { return api.ValidateTagLists(r.Tags, r.SystemTags) }

type createResponse struct {
	ID      string `json:"id"`
	Created bool   `json:"created"`
}

func (s *service) create(ctx context.Context, c *rpc.Call, req *createRequest) (*createResponse, error) {
	id, err := modeldom.Create(ctx, &s.d.Env, modeldom.CreateInput{Actor: actor(c), Name: req.Name, URI: req.URI,
		Comment: req.Comment, Design: req.Design, Framework: req.Framework, Labels: req.Labels, Parent: req.Parent,
		Project: req.Project, Task: req.Task, Public: req.Public, Ready: req.Ready, Tags: req.Tags,
		SystemTags: req.SystemTags, UICache: req.UICache, Metadata: req.Metadata.Items})
	if err != nil {
		return nil, err
	}
	return &createResponse{ID: id, Created: true}, nil
}
