package models

import (
	"context"
	"unicode/utf8"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
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

func (r *createRequest) Validate() error {
	if err := api.ValidateTags("tags", r.Tags); err != nil {
		return err
	}
	return api.ValidateTags("system_tags", r.SystemTags)
}

type createResponse struct {
	ID      string `json:"id"`
	Created bool   `json:"created"`
}

// minNameLen is the shortest model name create accepts (as the reference's store).
const minNameLen = 3

func (s *service) create(ctx context.Context, c *rpc.Call, req *createRequest) (*createResponse, error) {
	name, err := cleanName(req.Name)
	if err != nil {
		return nil, err
	}
	if utf8.RuneCountInString(name) < minNameLen {
		return nil, apierr.DataValidation("model name must be at least %d characters: name=%s", minNameLen, name)
	}
	now := s.d.Time()
	m := &store.Model{ID: ids.New(), Company: c.Company(), User: c.User(), Name: name, Created: now,
		LastUpdate: now, LastChange: now, LastChangedBy: c.User(), URI: req.URI, Comment: req.Comment,
		Design: req.Design, Framework: req.Framework, Labels: req.Labels, Parent: req.Parent, Project: req.Project,
		Ready: req.Ready, Task: req.Task, UICache: req.UICache, Metadata: req.Metadata.Items,
		Tags: domain.SortedTags(req.Tags), SystemTags: domain.SortedTags(req.SystemTags)}
	if req.Public {
		// Public from birth; the origin lets its company make it private.
		m.Company, m.CompanyOrigin = "", c.Company()
	}
	m.Normalize()
	err = s.d.DB.Tx(ctx, func(q store.Querier) error {
		if m.Project != "" {
			if err := s.checkProject(ctx, q, m.Project, m.Company); err != nil {
				return err
			}
		}
		if m.Task != "" {
			if err := s.checkTask(ctx, q, c.Company(), m.Task); err != nil {
				return err
			}
		}
		if m.Parent != "" {
			if err := s.checkParent(ctx, q, c.Company(), m.Parent); err != nil {
				return err
			}
		}
		return s.d.DB.Models().Insert(ctx, q, m)
	})
	if err != nil {
		return nil, err
	}
	return &createResponse{ID: m.ID, Created: true}, nil
}
