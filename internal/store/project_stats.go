package store

import (
	"context"

	"github.com/trove-ml/trove/internal/jsonx"
)

// ProjectTaskRow is what project statistics need of one task.
type ProjectTaskRow struct {
	Project, Status    string
	Archived           bool
	Started, Completed jsonx.Time
}

// ProjectTaskRows loads the statistics rows of the tasks of company (and
// public ones) in projects.
func (db *DB) ProjectTaskRows(ctx context.Context, company string, projects []string) ([]ProjectTaskRow, error) {
	return db.ScopedTaskRows(ctx, ContentScope{Companies: []string{company, ""}, Projects: projects})
}

// ScopedTaskRows loads the statistics rows of the tasks in scope.
func (db *DB) ScopedTaskRows(ctx context.Context, s ContentScope) ([]ProjectTaskRow, error) {
	if len(s.Projects) == 0 {
		return nil, nil
	}
	d := db.D
	where, wargs := s.where(d, "project", true)
	q := "SELECT project, status, CASE WHEN " + SystemTagged(d) + " THEN 1 ELSE 0 END, " +
		"COALESCE(" + d.JSONText("doc") + ", ''), COALESCE(" + d.JSONText("doc") + ", '') FROM tasks WHERE " + where
	args := append([]any{ArchivedTag, d.JSONPathArg([]string{"started"}), d.JSONPathArg([]string{"completed"})}, wargs...)
	rows, err := db.Read().QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ProjectTaskRow
	for rows.Next() {
		var r ProjectTaskRow
		var archived int
		var started, completed string
		if err := rows.Scan(&r.Project, &r.Status, &archived, &started, &completed); err != nil {
			return nil, err
		}
		r.Archived = archived == 1
		r.Started, _ = jsonx.ParseTime(started)
		r.Completed, _ = jsonx.ParseTime(completed)
		out = append(out, r)
	}
	return out, rows.Err()
}

// CountProjectModels counts the models of company (and public ones)
// directly in project; archived: nil = all, else only those (not) archived.
func (db *DB) CountProjectModels(ctx context.Context, company, project string, archived *bool) (int, error) {
	cond, cargs := archivedCond(db.D, archived)
	var n int
	err := db.Read().QueryRowContext(ctx, "SELECT COUNT(*) FROM models WHERE company IN (?, '') AND project = ?"+cond,
		append([]any{company, project}, cargs...)...).Scan(&n)
	return n, err
}
