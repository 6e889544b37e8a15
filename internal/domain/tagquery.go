package domain

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/store"
)

// tagSchema is enough schema for tag filters on tasks and models tables.
var tagSchema = query.TagsSchema("record")

// TagQuery asks for the distinct tags of a company's records in Tables,
// optionally limited to Projects and to records whose tags and system
// tags match the list filters (raw JSON, as the get_*_tags filter holds).
type TagQuery struct {
	Company          string
	Tables, Projects []string
	// IDs, when given, limits the records to these ids.
	IDs              []string
	TagsFilter       json.RawMessage
	SystemTagsFilter json.RawMessage
	// IncludeSystem also gathers the system tags.
	IncludeSystem bool
}

// CollectTags gathers the distinct tags (and, when asked, system tags).
func CollectTags(ctx context.Context, env *Env, in TagQuery) (tags, systemTags []string, err error) {
	scope := store.TagScope{Tables: in.Tables, Company: in.Company, IDs: in.IDs}
	if len(in.Projects) > 0 {
		// A project's tags include those of its subprojects.
		tree, err := env.DB.LoadProjectTree(ctx, env.DB.Read(), Visible(in.Company)...)
		if err != nil {
			return nil, nil, err
		}
		scope.Projects = tree.WithDescendants(in.Projects)
	}
	var conds []string
	for _, f := range []struct {
		field string
		raw   json.RawMessage
	}{{"tags", in.TagsFilter}, {"system_tags", in.SystemTagsFilter}} {
		cond, cargs, err := query.ListFilter(env.DB.D, tagSchema, f.field, f.raw)
		if err != nil {
			return nil, nil, err
		}
		if cond != "" {
			conds = append(conds, cond)
			scope.CondArgs = append(scope.CondArgs, cargs...)
		}
	}
	scope.Cond = strings.Join(conds, " AND ")
	// Without a filter the tags come from an index; with one, the records
	// are read, within the list queries' time budget.
	err = query.Budgeted(ctx, func(ctx context.Context) error {
		if tags, err = env.DB.DistinctTags(ctx, scope, "tags"); err != nil {
			return err
		}
		if in.IncludeSystem {
			systemTags, err = env.DB.DistinctTags(ctx, scope, "system_tags")
		}
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return tags, systemTags, nil
}
