package projects

import (
	"context"

	"github.com/trove-ml/trove/internal/rpc"

	projectdom "github.com/trove-ml/trove/internal/projects"
)

// projectTagsResponse always carries system_tags (empty unless asked).
type projectTagsResponse struct {
	Tags       []string `json:"tags"`
	SystemTags []string `json:"system_tags"`
}

func (s *service) getProjectTags(ctx context.Context, c *rpc.Call, req *tagsRequest) (*projectTagsResponse, error) {
	in := projectdom.TagsQuery{Company: c.Company(), Projects: req.Projects, IncludeSystem: req.IncludeSystem}
	if req.Filter != nil {
		in.TagsFilter, in.SystemTagsFilter = req.Filter.Tags, req.Filter.SystemTags
	}
	tags, systemTags, err := projectdom.ProjectTags(ctx, &s.d.Env, in)
	if err != nil {
		return nil, err
	}
	return &projectTagsResponse{Tags: tags, SystemTags: systemTags}, nil
}
