package api

import (
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/domain"
)

// TagFilter is the filter of the get_*_tags operations.
type TagFilter struct {
	Tags       json.RawMessage `json:"tags"`
	SystemTags json.RawMessage `json:"system_tags"`
}

// TagsResult is the answer of the get_*_tags operations.
type TagsResult struct {
	Tags []string `json:"tags"`
	// SystemTags is present (possibly empty) only when asked for.
	SystemTags *[]string `json:"system_tags,omitempty"`
}

// CollectTags maps a get_*_tags request to domain.CollectTags and its
// result to the answer.
func CollectTags(ctx context.Context, env *domain.Env, company string, tables []string, projects []string, filter *TagFilter, includeSystem bool) (*TagsResult, error) {
	in := domain.TagQuery{Company: company, Tables: tables, Projects: projects, IncludeSystem: includeSystem}
	if filter != nil {
		in.TagsFilter, in.SystemTagsFilter = filter.Tags, filter.SystemTags
	}
	tags, systemTags, err := domain.CollectTags(ctx, env, in)
	if err != nil {
		return nil, err
	}
	out := &TagsResult{Tags: tags}
	if includeSystem {
		if systemTags == nil {
			systemTags = []string{}
		}
		out.SystemTags = &systemTags
	}
	return out, nil
}
