package store

import (
	"context"
	"slices"
	"sort"
)

// TagScope selects the rows whose tags a get_*_tags call gathers.
type TagScope struct {
	// Tables are "tasks" and/or "models", or "projects".
	Tables  []string
	Company string
	// Projects, when given, limits the rows to these projects.
	Projects []string
	// IDs, when given, limits the rows to these ids.
	IDs []string
	// Cond is an extra condition (with CondArgs), e.g. a tag filter.
	Cond     string
	CondArgs []any
}

// DistinctTags lists, sorted, the distinct elements of the JSON array
// column col ("tags" or "system_tags") of the rows in scope. Without ids
// or a condition, the tags of tasks and models come from their facets
// (facets.go); otherwise the rows are read.
func (db *DB) DistinctTags(ctx context.Context, s TagScope, col string) ([]string, error) {
	if s.Cond == "" && len(s.IDs) == 0 && !slices.Contains(s.Tables, "projects") {
		return db.facetTags(ctx, s, col)
	}
	where := "company = ?"
	args := []any{s.Company}
	if len(s.Projects) > 0 {
		where += " AND project IN (" + Placeholders(len(s.Projects)) + ")"
		args = append(args, Args(s.Projects)...)
	}
	if s.Cond != "" {
		where += " AND " + s.Cond
		args = append(args, s.CondArgs...)
	}
	return unionOfTables(s.Tables, func(t string) ([]string, error) {
		if t != "projects" {
			if err := contentTable(t); err != nil {
				return nil, err
			}
		}
		w, wargs := where, args
		if len(s.IDs) > 0 {
			w += " AND " + t + ".id IN (" + Placeholders(len(s.IDs)) + ")"
			wargs = append(append([]any{}, args...), Args(s.IDs)...)
		}
		from, val := db.D.ArrayElements(t+"."+col, "tg")
		return IDs(ctx, db.Read(), "SELECT DISTINCT "+val+" FROM "+t+", "+from+" WHERE "+w, wargs...)
	})
}

// facetTags is DistinctTags of tasks and models from their facets.
func (db *DB) facetTags(ctx context.Context, s TagScope, col string) ([]string, error) {
	return unionOfTables(s.Tables, func(t string) ([]string, error) {
		return db.FacetValues(ctx, db.Read(), FacetScope{Entity: t, Companies: []string{s.Company}, Projects: s.Projects}, col)
	})
}

// unionOfTables is the sorted union of the values read from each table.
func unionOfTables(tables []string, read func(table string) ([]string, error)) ([]string, error) {
	seen := map[string]bool{}
	out := []string{}
	for _, t := range tables {
		vals, err := read(t)
		if err != nil {
			return nil, err
		}
		for _, v := range vals {
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}
