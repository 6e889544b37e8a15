package store

import (
	"context"
	"encoding/json"
)

// MLflow's model registry (issue 38): model versions, table
// mlflow_model_versions, one JSON document per (company, name, version).

// ModelVersion is a model version's document.
type ModelVersion struct {
	Name        string            `json:"name"`
	Version     int64             `json:"version"`
	Created     int64             `json:"created"`
	LastUpdate  int64             `json:"last_update"`
	User        string            `json:"user,omitempty"`
	Description string            `json:"description,omitempty"`
	Source      string            `json:"source"`
	RunID       string            `json:"run_id,omitempty"`
	RunLink     string            `json:"run_link,omitempty"`
	ModelID     string            `json:"model_id,omitempty"`
	Stage       string            `json:"stage"`
	Status      string            `json:"status"`
	Tags        map[string]string `json:"tags,omitempty"`
}

// PutModelVersion inserts or rewrites v.
func (db *DB) PutModelVersion(ctx context.Context, q Querier, company string, v *ModelVersion) error {
	doc, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `INSERT INTO mlflow_model_versions (company, name, version, doc) VALUES (?, ?, ?, ?)
		ON CONFLICT (company, name, version) DO UPDATE SET doc = excluded.doc`, company, v.Name, v.Version, string(doc))
	return err
}

// ModelVersions lists the versions of the model named name ("" for
// every model of the company), by name and version.
func (db *DB) ModelVersions(ctx context.Context, q Querier, company, name string) ([]*ModelVersion, error) {
	sql, args := `SELECT doc FROM mlflow_model_versions WHERE company = ?`, []any{company}
	if name != "" {
		sql, args = sql+` AND name = ?`, append(args, name)
	}
	rows, err := q.QueryContext(ctx, sql+` ORDER BY name, version`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*ModelVersion
	for rows.Next() {
		var doc string
		if err := rows.Scan(&doc); err != nil {
			return nil, err
		}
		v := &ModelVersion{}
		if err := json.Unmarshal([]byte(doc), v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// RenameModelVersions moves the versions of model from to name to.
func (db *DB) RenameModelVersions(ctx context.Context, q Querier, company, from, to string) error {
	vs, err := db.ModelVersions(ctx, q, company, from)
	if err != nil {
		return err
	}
	if _, err := q.ExecContext(ctx, `DELETE FROM mlflow_model_versions WHERE company = ? AND name = ?`, company, from); err != nil {
		return err
	}
	for _, v := range vs {
		v.Name = to
		if err := db.PutModelVersion(ctx, q, company, v); err != nil {
			return err
		}
	}
	return nil
}

// DeleteModelVersion removes one version.
func (db *DB) DeleteModelVersion(ctx context.Context, q Querier, company, name string, version int64) error {
	_, err := q.ExecContext(ctx, `DELETE FROM mlflow_model_versions WHERE company = ? AND name = ? AND version = ?`, company, name, version)
	return err
}
