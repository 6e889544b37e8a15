package store

import (
	"context"
)

// Cross-entity writes that several services share live here, so that
// deleting a project's contents and deleting a task do the same thing.

// DisassociateProject clears the project of the tasks or models (table)
// in the given projects, in the column and the document.
func (db *DB) DisassociateProject(ctx context.Context, q Querier, table string, projects []string) (int, error) {
	if len(projects) == 0 {
		return 0, nil
	}
	res, err := q.ExecContext(ctx, "UPDATE "+table+" SET project = NULL, doc = "+db.D.JSONRemove("doc")+" WHERE project IN ("+Placeholders(len(projects))+")",
		append([]any{db.D.JSONPathArg([]string{"project"})}, Args(projects)...)...)
	if err != nil {
		return 0, err
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// SetProject moves tasks or models (table) with the given ids to project
// ("" = no project), in the column and the document.
func (db *DB) SetProject(ctx context.Context, q Querier, table string, ids []string, project string) error {
	if len(ids) == 0 {
		return nil
	}
	path := db.D.JSONPathArg([]string{"project"})
	if project == "" {
		_, err := q.ExecContext(ctx, "UPDATE "+table+" SET project = NULL, doc = "+db.D.JSONRemove("doc")+" WHERE id IN ("+Placeholders(len(ids))+")",
			append([]any{path}, Args(ids)...)...)
		return err
	}
	_, err := q.ExecContext(ctx, "UPDATE "+table+" SET project = ?, doc = "+db.D.JSONSetText("doc")+" WHERE id IN ("+Placeholders(len(ids))+")",
		append([]any{project, path, project}, Args(ids)...)...)
	return err
}

// IDs returns the ids selected by a query of one id column.
func IDs(ctx context.Context, q Querier, query string, args ...any) ([]string, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}
