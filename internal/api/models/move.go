package models

import (
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/rpc"

	modeldom "github.com/trove-ml/trove/internal/models"
)

type moveRequest struct {
	IDs []string `json:"ids" required:"true"`
	// Project is raw to tell null (the root) from absent.
	Project     json.RawMessage `json:"project"`
	ProjectName string          `json:"project_name"`
	// project is Project decoded by Validate ("" = null or absent).
	project string
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
		if p != nil {
			r.project = *p
		}
	}
	return nil
}

type moveResponse struct {
	// ProjectID is the destination, null for the root.
	ProjectID *string `json:"project_id"`
}

// move puts company models under a project: an id, null for the root, or
// project_name (found or created with its parents).
func (s *service) move(ctx context.Context, c *rpc.Call, req *moveRequest) (*moveResponse, error) {
	dest, err := modeldom.Move(ctx, &s.d.Env, actor(c), req.IDs, req.project, req.ProjectName)
	if err != nil {
		return nil, err
	}
	resp := &moveResponse{}
	if dest != "" {
		resp.ProjectID = &dest
	}
	return resp, nil
}
