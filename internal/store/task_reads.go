package store

import "context"

// TasksByIDs loads the tasks with the given ids (any company), keyed by id;
// unknown ids are absent.
func (db *DB) TasksByIDs(ctx context.Context, q Querier, ids []string) (map[string]*Task, error) {
	out := map[string]*Task{}
	if len(ids) == 0 {
		return out, nil
	}
	list, err := db.Tasks().Select(ctx, q, "id IN ("+Placeholders(len(ids))+")", Args(ids)...)
	if err != nil {
		return nil, err
	}
	for _, t := range list {
		out[t.ID] = t
	}
	return out, nil
}

// TaskNames maps the ids of tasks of the company or public ones to their
// names; unknown ids are absent.
func (db *DB) TaskNames(ctx context.Context, q Querier, company string, ids []string) (map[string]string, error) {
	out := map[string]string{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := q.QueryContext(ctx, "SELECT id, name FROM tasks WHERE company IN (?, '') AND id IN ("+
		Placeholders(len(ids))+")", append([]any{company}, Args(ids)...)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id, name string
		if err := rows.Scan(&id, &name); err != nil {
			return nil, err
		}
		out[id] = name
	}
	return out, rows.Err()
}

// TasksIn loads the tasks with the given ids that belong to one of the
// companies (unknown ids are left out).
func (db *DB) TasksIn(ctx context.Context, q Querier, ids, companies []string) ([]*Task, error) {
	if len(ids) == 0 || len(companies) == 0 {
		return nil, nil
	}
	return db.Tasks().Select(ctx, q, "id IN ("+Placeholders(len(ids))+") AND company IN ("+Placeholders(len(companies))+")",
		append(Args(ids), Args(companies)...)...)
}
