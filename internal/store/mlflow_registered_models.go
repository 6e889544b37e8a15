package store

import (
	"context"
	"encoding/json"
)

// MLflow's model registry (issue 38): registered models, table
// mlflow_registered_models, one JSON document per (company, name).

// RegisteredModel is a registered model's document.
type RegisteredModel struct {
	Name        string            `json:"name"`
	Created     int64             `json:"created"`
	LastUpdate  int64             `json:"last_update"`
	User        string            `json:"user,omitempty"`
	Description string            `json:"description,omitempty"`
	Tags        map[string]string `json:"tags,omitempty"`
	// Aliases map an alias to a version number.
	Aliases map[string]int64 `json:"aliases,omitempty"`
	// NextVersion is the number the next version gets (versions are
	// never renumbered, a deleted one's number is not reused).
	NextVersion int64 `json:"next_version"`
}

// InsertRegisteredModel adds m (ErrDuplicate when the name is taken).
func (db *DB) InsertRegisteredModel(ctx context.Context, q Querier, company string, m *RegisteredModel) error {
	doc, err := json.Marshal(m)
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `INSERT INTO mlflow_registered_models (company, name, doc) VALUES (?, ?, ?)`, company, m.Name, string(doc))
	if db.D.IsUniqueViolation(err) {
		return ErrDuplicate
	}
	return err
}

// UpdateRegisteredModel rewrites the document of the model named name
// (m.Name may be a new name: ErrDuplicate when it is taken).
func (db *DB) UpdateRegisteredModel(ctx context.Context, q Querier, company, name string, m *RegisteredModel) error {
	doc, err := json.Marshal(m)
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `UPDATE mlflow_registered_models SET name = ?, doc = ? WHERE company = ? AND name = ?`,
		m.Name, string(doc), company, name)
	if db.D.IsUniqueViolation(err) {
		return ErrDuplicate
	}
	return err
}

// GetRegisteredModel reads the model named name (ErrNotFound when none);
// forUpdate locks its row on PostgreSQL.
func (db *DB) GetRegisteredModel(ctx context.Context, q Querier, company, name string, forUpdate bool) (*RegisteredModel, error) {
	sql := `SELECT doc FROM mlflow_registered_models WHERE company = ? AND name = ?`
	if forUpdate && db.IsPostgres() {
		sql += ` FOR UPDATE`
	}
	var doc string
	if err := q.QueryRowContext(ctx, sql, company, name).Scan(&doc); err != nil {
		return nil, NoRow(err, "registered model")
	}
	m := &RegisteredModel{}
	return m, json.Unmarshal([]byte(doc), m)
}

// RegisteredModels lists the company's registered models by name.
func (db *DB) RegisteredModels(ctx context.Context, company string) ([]*RegisteredModel, error) {
	rows, err := db.Read().QueryContext(ctx, `SELECT doc FROM mlflow_registered_models WHERE company = ? ORDER BY name`, company)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*RegisteredModel
	for rows.Next() {
		var doc string
		if err := rows.Scan(&doc); err != nil {
			return nil, err
		}
		m := &RegisteredModel{}
		if err := json.Unmarshal([]byte(doc), m); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// DeleteRegisteredModel removes the model named name and its versions.
func (db *DB) DeleteRegisteredModel(ctx context.Context, q Querier, company, name string) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM mlflow_model_versions WHERE company = ? AND name = ?`, company, name); err != nil {
		return err
	}
	_, err := q.ExecContext(ctx, `DELETE FROM mlflow_registered_models WHERE company = ? AND name = ?`, company, name)
	return err
}
