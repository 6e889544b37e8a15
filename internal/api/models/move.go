package models

import (
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/api/projects"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

type moveRequest struct {
	IDs []string `json:"ids" required:"true"`
	// Project is raw to tell null (the root) from absent.
	Project     json.RawMessage `json:"project"`
	ProjectName string          `json:"project_name"`
}

func (r *moveRequest) Validate() error {
	if len(r.IDs) == 0 {
		return apierr.Validation("ids", "at least one model id is required")
	}
	if len(r.Project) == 0 && r.ProjectName == "" {
		return apierr.MissingField("project", "project_name")
	}
	if len(r.Project) > 0 {
		var p *string
		if err := json.Unmarshal(r.Project, &p); err != nil {
			return apierr.Validation("project", "value is wrong, expected type string or null")
		}
	}
	return nil
}

type moveResponse struct {
	// ProjectID is the destination, null for the root.
	ProjectID *string `json:"project_id"`
}

// move puts company models under a project: an id, null for the root, or
// project_name (found or created with its parents). All models must be
// the caller's, else nothing moves.
func (s *service) move(ctx context.Context, c *rpc.Call, req *moveRequest) (*moveResponse, error) {
	var project *string
	_ = json.Unmarshal(req.Project, &project)
	resp := &moveResponse{}
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		dest := ""
		switch {
		case project != nil && *project != "":
			p, err := s.d.DB.Projects().Get(ctx, q, *project, c.Company())
			if err != nil {
				return domain.NotFound(err, apierr.InvalidProjectID(*project))
			}
			dest = p.ID
		case req.ProjectName != "":
			p, err := projects.EnsureByName(ctx, s.d, q, c.Company(), c.User(), req.ProjectName)
			if err != nil {
				return err
			}
			dest = p.ID
		}
		recs, err := s.loadAllWritable(ctx, q, c.Company(), req.IDs)
		if err != nil {
			return err
		}
		for _, m := range recs {
			m.Project = dest
			s.touch(m, c.User(), false)
			if err := s.d.DB.Models().Update(ctx, q, m); err != nil {
				return err
			}
		}
		if dest != "" {
			resp.ProjectID = &dest
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return resp, nil
}
