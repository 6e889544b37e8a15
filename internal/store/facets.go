package store

import (
	"context"
	"sort"
)

// The distinct tags, system tags, types and parents of tasks and models
// per (company, project, archived), read from the table migration 0090's
// triggers keep on every write (a read of every row took seconds on a
// large store).

// FacetScope selects the records whose facets a read gathers.
type FacetScope struct {
	// Entity is "tasks" or "models".
	Entity    string
	Companies []string
	// Projects limits the records to these projects (none: every record,
	// or with NoProject the records without a project).
	Projects  []string
	NoProject bool
	// Archived: nil = any, true = archived only, false = not archived.
	Archived *bool
}

// FacetValues lists, sorted bytewise (never nil), the distinct values of
// facet ("tags", "system_tags", "type" or "parent") that some record in
// scope holds.
func (db *DB) FacetValues(ctx context.Context, q Querier, s FacetScope, facet string) ([]string, error) {
	if err := contentTable(s.Entity); err != nil {
		return nil, err
	}
	where := "entity = ? AND company IN (" + Placeholders(len(s.Companies)) + ") AND facet = ? AND records > 0"
	args := append(append([]any{s.Entity}, Args(s.Companies)...), facet)
	switch {
	case s.NoProject:
		where += " AND project = ''"
	case len(s.Projects) > 0:
		where += " AND project IN (" + Placeholders(len(s.Projects)) + ")"
		args = append(args, Args(s.Projects)...)
	}
	if s.Archived != nil {
		where += " AND archived = ?"
		args = append(args, map[bool]int{false: 0, true: 1}[*s.Archived])
	}
	values, err := IDs(ctx, q, "SELECT DISTINCT value FROM record_facets WHERE "+where, args...)
	if err != nil {
		return nil, err
	}
	if values == nil {
		values = []string{}
	}
	sort.Strings(values)
	return values, nil
}

// TaskParentIDs lists the distinct parents of the tasks s selects (its
// Companies, projects and Archived; WithParent is implied).
func (db *DB) TaskParentIDs(ctx context.Context, s DocScan) ([]string, error) {
	fs := FacetScope{Entity: "tasks", Companies: s.Companies, NoProject: s.NoProject, Archived: s.Archived}
	if !s.AllProjects && !s.NoProject {
		if len(s.Projects) == 0 {
			return []string{}, nil
		}
		fs.Projects = s.Projects
	}
	return db.FacetValues(ctx, db.Read(), fs, "parent")
}
