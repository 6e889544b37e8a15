package api

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/store"
)

// TagFilter is the filter of the get_*_tags operations.
type TagFilter struct {
	Tags       json.RawMessage `json:"tags"`
	SystemTags json.RawMessage `json:"system_tags"`
}

// tagSchema is enough schema for tag filters on tasks and models tables.
var tagSchema = &query.Schema{Entity: "record", Columns: map[string]query.Column{
	"tags": {Name: "tags", Kind: query.JSONArray}, "system_tags": {Name: "system_tags", Kind: query.JSONArray},
}}

// TagsResult is the answer of the get_*_tags operations.
type TagsResult struct {
	Tags       []string `json:"tags"`
	SystemTags []string `json:"system_tags,omitempty"`
}

// CollectTags gathers the distinct tags (and system tags when asked) of
// the company's records in tables, optionally limited to projects and to
// records matching the filter.
func CollectTags(ctx context.Context, db *store.DB, company string, tables []string, projects []string, filter *TagFilter, includeSystem bool) (*TagsResult, error) {
	scope := store.TagScope{Tables: tables, Company: company, Projects: projects}
	if filter != nil {
		var conds []string
		for _, f := range []struct {
			field string
			raw   json.RawMessage
		}{{"tags", filter.Tags}, {"system_tags", filter.SystemTags}} {
			cond, cargs, err := query.ListFilter(db.D, tagSchema, f.field, f.raw)
			if err != nil {
				return nil, err
			}
			if cond != "" {
				conds = append(conds, cond)
				scope.CondArgs = append(scope.CondArgs, cargs...)
			}
		}
		scope.Cond = strings.Join(conds, " AND ")
	}
	res := &TagsResult{}
	var err error
	if res.Tags, err = db.DistinctTags(ctx, scope, "tags"); err != nil {
		return nil, err
	}
	if includeSystem {
		if res.SystemTags, err = db.DistinctTags(ctx, scope, "system_tags"); err != nil {
			return nil, err
		}
	}
	return res, nil
}
