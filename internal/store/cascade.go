package store

import (
	"context"
	"encoding/json"
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

// TaskPurger deletes what hangs off tasks that are being deleted (events,
// queue entries, ...). Services that own such data register one.
type TaskPurger func(ctx context.Context, q Querier, taskIDs []string) error

// DeleteTasksCascade deletes tasks by id, running the registered purgers,
// and collects their artifact URLs.
func (db *DB) DeleteTasksCascade(ctx context.Context, q Querier, ids []string, urls *FileURLs) (int, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	rows, err := q.QueryContext(ctx, "SELECT doc FROM tasks WHERE id IN ("+Placeholders(len(ids))+")", Args(ids)...)
	if err != nil {
		return 0, err
	}
	for rows.Next() {
		var doc []byte
		if err := rows.Scan(&doc); err != nil {
			rows.Close()
			return 0, err
		}
		var t struct {
			Execution struct {
				Artifacts []struct {
					URI string `json:"uri"`
				} `json:"artifacts"`
			} `json:"execution"`
		}
		if json.Unmarshal(doc, &t) == nil && urls != nil {
			for _, a := range t.Execution.Artifacts {
				if a.URI != "" {
					urls.ArtifactURLs = append(urls.ArtifactURLs, a.URI)
				}
			}
		}
	}
	rows.Close()
	if urls != nil {
		ev, err := db.EventFileURLs(ctx, q, ids)
		if err != nil {
			return 0, err
		}
		urls.EventURLs = append(urls.EventURLs, ev...)
	}
	for _, p := range db.taskPurgers {
		if err := p(ctx, q, ids); err != nil {
			return 0, err
		}
	}
	if _, err := db.DeleteTaskEvents(ctx, q, ids); err != nil {
		return 0, err
	}
	if _, err := db.RemoveTasksFromAllQueues(ctx, q, ids); err != nil {
		return 0, err
	}
	res, err := q.ExecContext(ctx, "DELETE FROM tasks WHERE id IN ("+Placeholders(len(ids))+")", Args(ids)...)
	if err != nil {
		return 0, err
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// AddTaskPurger registers a purger run by DeleteTasksCascade.
func (db *DB) AddTaskPurger(p TaskPurger) { db.taskPurgers = append(db.taskPurgers, p) }

// ModelPurger deletes what hangs off models that are being deleted (model
// events). Services that own such data register one.
type ModelPurger func(ctx context.Context, q Querier, modelIDs []string) error

// AddModelPurger registers a purger run by DeleteModelsCascade, the one
// path every model deletion takes (models.delete, tasks.delete/reset,
// projects.delete).
func (db *DB) AddModelPurger(p ModelPurger) { db.modelPurgers = append(db.modelPurgers, p) }

// DeleteModelsCascade deletes models by id, running the registered
// purgers, and collects their URIs.
func (db *DB) DeleteModelsCascade(ctx context.Context, q Querier, ids []string, urls *FileURLs) (int, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	rows, err := q.QueryContext(ctx, "SELECT COALESCE(uri, '') FROM models WHERE id IN ("+Placeholders(len(ids))+")", Args(ids)...)
	if err != nil {
		return 0, err
	}
	for rows.Next() {
		var uri string
		if err := rows.Scan(&uri); err != nil {
			rows.Close()
			return 0, err
		}
		if uri != "" && urls != nil {
			urls.ModelURLs = append(urls.ModelURLs, uri)
		}
	}
	rows.Close()
	for _, p := range db.modelPurgers {
		if err := p(ctx, q, ids); err != nil {
			return 0, err
		}
	}
	res, err := q.ExecContext(ctx, "DELETE FROM models WHERE id IN ("+Placeholders(len(ids))+")", Args(ids)...)
	if err != nil {
		return 0, err
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// EventDeleter deletes the events of tasks and returns how many it deleted.
type EventDeleter func(ctx context.Context, q Querier, taskIDs []string) (int64, error)

// SetEventDeleter installs the events service's deleter (used by
// tasks.reset and tasks.delete through DeleteTaskEvents).
func (db *DB) SetEventDeleter(f EventDeleter) { db.eventDeleter = f }

// DeleteTaskEvents deletes the events of tasks with the installed deleter
// (none installed: nothing to delete).
func (db *DB) DeleteTaskEvents(ctx context.Context, q Querier, taskIDs []string) (int64, error) {
	if db.eventDeleter == nil || len(taskIDs) == 0 {
		return 0, nil
	}
	return db.eventDeleter(ctx, q, taskIDs)
}
