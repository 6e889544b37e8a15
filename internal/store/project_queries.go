package store

import (
	"context"
	"fmt"
)

// The reads of projects.* operations over the tasks and models inside
// projects (parents, hyper parameters, metrics, merges, active users).

// ProjectsOfUsers lists the distinct projects holding tasks or models of
// the company created by any of users.
func (db *DB) ProjectsOfUsers(ctx context.Context, company string, users []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	for _, table := range []string{"tasks", "models"} {
		ids, err := IDs(ctx, db.Read(), "SELECT DISTINCT project FROM "+table+" WHERE company = ? AND project IS NOT NULL AND user_id IN ("+
			Placeholders(len(users))+")", append([]any{company}, Args(users)...)...)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	return out, nil
}

// ActiveIDsInProject lists the ids of the rows of table ("tasks" or
// "models") directly in project that are not archived.
func (db *DB) ActiveIDsInProject(ctx context.Context, q Querier, table, project string) ([]string, error) {
	if err := contentTable(table); err != nil {
		return nil, err
	}
	return IDs(ctx, q, "SELECT id FROM "+table+" WHERE project = ? AND "+NotSystemTagged(db.D), project, ArchivedTag)
}

// ProjectChildren loads the projects whose parent is id.
func (db *DB) ProjectChildren(ctx context.Context, q Querier, id string) ([]*Project, error) {
	return db.Projects().Select(ctx, q, "parent = ?", id)
}

// DocScan selects the stored documents of tasks or models by project.
type DocScan struct {
	// Table is "tasks" or "models".
	Table     string
	Companies []string
	// Projects limits the rows to these projects, unless AllProjects or
	// NoProject (rows without a project) is set.
	Projects    []string
	AllProjects bool
	NoProject   bool
	// Archived: nil = any, true = archived only, false = not archived.
	Archived *bool
	// WithParent keeps only rows that have a parent.
	WithParent bool
	// IDs, when given, keeps only these rows.
	IDs []string
	// Member, when given, scans only the JSON member at this path of each
	// document (rows without it are skipped): the database extracts it,
	// so an aggregate over a large table does not decode whole documents.
	Member []string
}

// ScanDocs calls each with the document (or its Member) of every row the
// scan selects.
func (db *DB) ScanDocs(ctx context.Context, s DocScan, each func(doc []byte) error) error {
	if err := contentTable(s.Table); err != nil {
		return err
	}
	col, args := "doc", []any{}
	if len(s.Member) > 0 {
		col = db.D.JSONValue("doc")
		args = append(args, db.D.JSONPathArg(s.Member))
	}
	where := "company IN (" + Placeholders(len(s.Companies)) + ")"
	args = append(args, Args(s.Companies)...)
	switch {
	case s.AllProjects:
	case s.NoProject:
		where += " AND project IS NULL"
	default:
		where += " AND project IN (" + Placeholders(len(s.Projects)) + ")"
		args = append(args, Args(s.Projects)...)
	}
	cond, cargs := archivedCond(db.D, s.Archived)
	where += cond
	args = append(args, cargs...)
	if s.WithParent {
		where += " AND parent IS NOT NULL"
	}
	if len(s.IDs) > 0 {
		where += " AND id IN (" + Placeholders(len(s.IDs)) + ")"
		args = append(args, Args(s.IDs)...)
	}
	if len(s.Member) > 0 {
		where += " AND " + col + " IS NOT NULL"
		args = append(args, db.D.JSONPathArg(s.Member))
	}
	rows, err := db.Read().QueryContext(ctx, "SELECT "+col+" FROM "+s.Table+" WHERE "+where, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var doc []byte
		if err := rows.Scan(&doc); err != nil {
			return err
		}
		if err := each(doc); err != nil {
			return err
		}
	}
	return rows.Err()
}

// contentTable refuses a table that is not one of the project contents.
func contentTable(table string) error {
	if table != "tasks" && table != "models" {
		return fmt.Errorf("not a table of project contents: %q", table)
	}
	return nil
}
