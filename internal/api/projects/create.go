package projects

import (
	"context"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/rpc"

	projectdom "github.com/trove-ml/trove/internal/projects"
)

type createRequest struct {
	Name                     string   `json:"name" required:"true"`
	Description              string   `json:"description"`
	Tags                     []string `json:"tags"`
	SystemTags               []string `json:"system_tags"`
	DefaultOutputDestination *string  `json:"default_output_destination"`
}

func (r *createRequest) Validate() error { return api.ValidateTagLists(r.Tags, r.SystemTags) }

type createResponse struct {
	ID string `json:"id"`
}

func (s *service) create(ctx context.Context, c *rpc.Call, req *createRequest) (*createResponse, error) {
	id, err := projectdom.Create(ctx, &s.d.Env, projectdom.CreateInput{Company: c.Company(), User: c.User(),
		Name: req.Name, Description: req.Description, Tags: req.Tags, SystemTags: req.SystemTags,
		DefaultOutputDestination: req.DefaultOutputDestination})
	if err != nil {
		return nil, err
	}
	return &createResponse{ID: id}, nil
}
