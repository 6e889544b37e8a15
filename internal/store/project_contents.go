package store

import (
	"context"
	"encoding/json"
	"strings"
)

// The reads behind the dataset, pipeline and report views of projects:
// which projects hold records of one kind, and what they hold.

// ContentScope narrows the task rows (or, for the project reads, the
// project rows) that a projects read looks at.
type ContentScope struct {
	Companies []string
	// Projects limits task rows to these projects and project rows to
	// these parents; nil means any.
	Projects []string
	// SystemTag, when set, keeps only rows carrying this system tag.
	SystemTag string
	// NotArchived leaves out rows with the system tag archived.
	NotArchived bool
	// Types keeps only tasks of these types (task reads only).
	Types []string
	// Users keeps only rows created by these users.
	Users []string
	// ExcludeBasename leaves out projects of this basename (project reads).
	ExcludeBasename string
	// Cond is an extra condition with ? placeholders over the row's own
	// columns (a tag filter compiled by the list-query builder).
	Cond     string
	CondArgs []any
}

// where builds the scope's condition; projectCol is the column that
// Projects limits.
func (s ContentScope) where(d Dialect, projectCol string, tasks bool) (string, []any) {
	conds := []string{"company IN (" + Placeholders(len(s.Companies)) + ")"}
	args := Args(s.Companies)
	if s.Projects != nil {
		if len(s.Projects) == 0 {
			conds = append(conds, "1=0")
		} else {
			conds = append(conds, projectCol+" IN ("+Placeholders(len(s.Projects))+")")
			args = append(args, Args(s.Projects)...)
		}
	}
	if s.SystemTag != "" {
		conds = append(conds, SystemTagged(d))
		args = append(args, s.SystemTag)
	}
	if s.NotArchived {
		conds = append(conds, NotSystemTagged(d))
		args = append(args, ArchivedTag)
	}
	if tasks && len(s.Types) > 0 {
		conds = append(conds, "type IN ("+Placeholders(len(s.Types))+")")
		args = append(args, Args(s.Types)...)
	}
	if len(s.Users) > 0 {
		conds = append(conds, "user_id IN ("+Placeholders(len(s.Users))+")")
		args = append(args, Args(s.Users)...)
	}
	if !tasks && s.ExcludeBasename != "" {
		conds = append(conds, "basename <> ?")
		args = append(args, s.ExcludeBasename)
	}
	if s.Cond != "" {
		conds = append(conds, "("+s.Cond+")")
		args = append(args, s.CondArgs...)
	}
	return strings.Join(conds, " AND "), args
}

// TaskProjects lists the distinct projects of the tasks in scope.
func (db *DB) TaskProjects(ctx context.Context, q Querier, s ContentScope) ([]string, error) {
	where, args := s.where(db.D, "project", true)
	return IDs(ctx, q, "SELECT DISTINCT project FROM tasks WHERE project IS NOT NULL AND "+where, args...)
}

// ScopedProjects loads the projects in scope (Projects naming parents).
func (db *DB) ScopedProjects(ctx context.Context, q Querier, s ContentScope) ([]*Project, error) {
	where, args := s.where(db.D, "parent", false)
	return db.Projects().Select(ctx, q, where, args...)
}

// CountTasksByProject counts the tasks in scope per project.
func (db *DB) CountTasksByProject(ctx context.Context, q Querier, s ContentScope) (map[string]int, error) {
	where, args := s.where(db.D, "project", true)
	rows, err := q.QueryContext(ctx, "SELECT project, COUNT(*) FROM tasks WHERE project IS NOT NULL AND "+where+" GROUP BY project", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var p string
		var n int
		if err := rows.Scan(&p, &n); err != nil {
			return nil, err
		}
		out[p] = n
	}
	return out, rows.Err()
}

// LatestTaskRuntimes returns, per project in scope, the runtime of its
// most recently updated task that has a non-empty runtime (dataset
// versions keep their file count and size there).
func (db *DB) LatestTaskRuntimes(ctx context.Context, q Querier, s ContentScope) (map[string]map[string]any, error) {
	where, args := s.where(db.D, "project", true)
	col := db.D.JSONValue("doc")
	args = append([]any{db.D.JSONPathArg([]string{"runtime"})}, args...)
	rows, err := q.QueryContext(ctx, "SELECT project, "+col+" FROM tasks WHERE project IS NOT NULL AND "+where+
		" ORDER BY project, last_update, id", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]map[string]any{}
	for rows.Next() {
		var p string
		var raw []byte
		if err := rows.Scan(&p, &raw); err != nil {
			return nil, err
		}
		var rt map[string]any
		if len(raw) == 0 || json.Unmarshal(raw, &rt) != nil || len(rt) == 0 {
			continue
		}
		out[p] = rt
	}
	return out, rows.Err()
}

// ScopedTaskNames lists the names of the tasks in scope.
func (db *DB) ScopedTaskNames(ctx context.Context, q Querier, s ContentScope) ([]string, error) {
	where, args := s.where(db.D, "project", true)
	return IDs(ctx, q, "SELECT name FROM tasks WHERE "+where, args...)
}

// ScopedTaskIDs lists the ids of the tasks in scope.
func (db *DB) ScopedTaskIDs(ctx context.Context, q Querier, s ContentScope) ([]string, error) {
	where, args := s.where(db.D, "project", true)
	return IDs(ctx, q, "SELECT id FROM tasks WHERE "+where+" ORDER BY id", args...)
}
