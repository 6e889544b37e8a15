package api

import (
	"context"
	"encoding/json"
	"sort"

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
	where := "company = ?"
	args := []any{company}
	if len(projects) > 0 {
		where += " AND project IN (" + store.Placeholders(len(projects)) + ")"
		args = append(args, store.Args(projects)...)
	}
	if filter != nil {
		for _, f := range []struct {
			field string
			raw   json.RawMessage
		}{{"tags", filter.Tags}, {"system_tags", filter.SystemTags}} {
			cond, cargs, err := query.ListFilter(db.D, tagSchema, f.field, f.raw)
			if err != nil {
				return nil, err
			}
			if cond != "" {
				where += " AND " + cond
				args = append(args, cargs...)
			}
		}
	}
	res := &TagsResult{}
	var err error
	if res.Tags, err = distinctTags(ctx, db, tables, "tags", where, args); err != nil {
		return nil, err
	}
	if includeSystem {
		if res.SystemTags, err = distinctTags(ctx, db, tables, "system_tags", where, args); err != nil {
			return nil, err
		}
	}
	return res, nil
}

func distinctTags(ctx context.Context, db *store.DB, tables []string, col, where string, args []any) ([]string, error) {
	seen := map[string]bool{}
	out := []string{}
	for _, t := range tables {
		from, val := db.D.ArrayElements(t+"."+col, "tg")
		rows, err := db.Read().QueryContext(ctx, "SELECT DISTINCT "+val+" FROM "+t+", "+from+" WHERE "+where, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var v string
			if err := rows.Scan(&v); err != nil {
				rows.Close()
				return nil, err
			}
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	sort.Strings(out)
	return out, nil
}
