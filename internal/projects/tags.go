package projects

import (
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/domain"
)

// TagsQuery asks for the tags of a company's projects: of the listed ones
// and their subprojects (all projects when none are listed), of projects
// whose tags match the filters.
type TagsQuery struct {
	Company                      string
	Projects                     []string
	TagsFilter, SystemTagsFilter json.RawMessage
	IncludeSystem                bool
}

// ProjectTags gathers the distinct tags (and, when asked, system tags) of
// the projects themselves, sorted.
func ProjectTags(ctx context.Context, env *domain.Env, in TagsQuery) (tags, systemTags []string, err error) {
	q := domain.TagQuery{Company: in.Company, Tables: []string{"projects"}, TagsFilter: in.TagsFilter,
		SystemTagsFilter: in.SystemTagsFilter, IncludeSystem: in.IncludeSystem}
	if len(in.Projects) > 0 {
		tree, err := env.DB.LoadProjectTree(ctx, env.DB.Read(), in.Company)
		if err != nil {
			return nil, nil, err
		}
		q.IDs = tree.WithDescendants(in.Projects)
	}
	tags, systemTags, err = domain.CollectTags(ctx, env, q)
	if systemTags == nil {
		systemTags = []string{}
	}
	return tags, systemTags, err
}
