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
	remove := "json_remove(doc, '$.project')"
	if db.IsPostgres() {
		remove = "(doc - 'project')"
	}
	res, err := q.ExecContext(ctx, "UPDATE "+table+" SET project = NULL, doc = "+remove+" WHERE project IN ("+Placeholders(len(projects))+")", Args(projects)...)
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
	if project == "" {
		remove := "json_remove(doc, '$.project')"
		if db.IsPostgres() {
			remove = "(doc - 'project')"
		}
		_, err := q.ExecContext(ctx, "UPDATE "+table+" SET project = NULL, doc = "+remove+" WHERE id IN ("+Placeholders(len(ids))+")", Args(ids)...)
		return err
	}
	set := "json_set(doc, '$.project', ?)"
	if db.IsPostgres() {
		set = "jsonb_set(doc, '{project}', to_jsonb(?::text))"
	}
	_, err := q.ExecContext(ctx, "UPDATE "+table+" SET project = ?, doc = "+set+" WHERE id IN ("+Placeholders(len(ids))+")",
		append([]any{project, project}, Args(ids)...)...)
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

// FileURLs are the file URLs of deleted records.
type FileURLs struct {
	ModelURLs    []string `json:"model_urls"`
	EventURLs    []string `json:"event_urls"`
	ArtifactURLs []string `json:"artifact_urls"`
}

// NewFileURLs returns empty (not null) lists.
func NewFileURLs() *FileURLs {
	return &FileURLs{ModelURLs: []string{}, EventURLs: []string{}, ArtifactURLs: []string{}}
}
