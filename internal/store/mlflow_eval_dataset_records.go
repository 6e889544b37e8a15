package store

import (
	"context"
	"encoding/json"
)

// The records of MLflow 3's evaluation datasets (issue 38): table
// mlflow_eval_dataset_records, one document per record, unique per
// dataset by the hash of its inputs (an upsert of the same inputs
// updates the record).

// EvalRecord is one record's document. Inputs, Expectations, Tags and
// Source are JSON values kept as given.
type EvalRecord struct {
	ID            string          `json:"id"`
	Inputs        json.RawMessage `json:"inputs"`
	Expectations  json.RawMessage `json:"expectations,omitempty"`
	Tags          json.RawMessage `json:"tags,omitempty"`
	Source        json.RawMessage `json:"source,omitempty"`
	SourceID      string          `json:"source_id,omitempty"`
	SourceType    string          `json:"source_type,omitempty"`
	Created       int64           `json:"created"`
	LastUpdate    int64           `json:"last_update"`
	CreatedBy     string          `json:"created_by,omitempty"`
	LastUpdatedBy string          `json:"last_updated_by,omitempty"`
}

// EvalRecordByInputs reads the record of dataset whose inputs hash to
// hash (ErrNotFound when none).
func (db *DB) EvalRecordByInputs(ctx context.Context, q Querier, company, dataset, hash string) (*EvalRecord, error) {
	var doc string
	err := q.QueryRowContext(ctx, `SELECT doc FROM mlflow_eval_dataset_records WHERE company = ? AND dataset = ? AND input_hash = ?`,
		company, dataset, hash).Scan(&doc)
	if err != nil {
		return nil, NoRow(err, "dataset record")
	}
	r := &EvalRecord{}
	return r, json.Unmarshal([]byte(doc), r)
}

// InsertEvalRecord adds record r to dataset, numbered after the last
// one (the caller holds the dataset's row lock: numbers do not collide).
func (db *DB) InsertEvalRecord(ctx context.Context, q Querier, company, dataset, hash string, r *EvalRecord) error {
	doc, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `INSERT INTO mlflow_eval_dataset_records (company, dataset, id, input_hash, seq, doc)
		SELECT ?, ?, ?, ?, COALESCE(MAX(seq), 0) + 1, ? FROM mlflow_eval_dataset_records WHERE company = ? AND dataset = ?`,
		company, dataset, r.ID, hash, string(doc), company, dataset)
	return err
}

// UpdateEvalRecord rewrites record r of dataset.
func (db *DB) UpdateEvalRecord(ctx context.Context, q Querier, company, dataset string, r *EvalRecord) error {
	doc, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `UPDATE mlflow_eval_dataset_records SET doc = ? WHERE company = ? AND dataset = ? AND id = ?`,
		string(doc), company, dataset, r.ID)
	return err
}

// EvalRecords reads the records of dataset in the order added, from
// offset, at most limit.
func (db *DB) EvalRecords(ctx context.Context, company, dataset string, offset, limit int) ([]*EvalRecord, error) {
	rows, err := db.Read().QueryContext(ctx, `SELECT doc FROM mlflow_eval_dataset_records WHERE company = ? AND dataset = ?
		ORDER BY seq LIMIT ? OFFSET ?`, company, dataset, limit, offset)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*EvalRecord
	for rows.Next() {
		var doc string
		if err := rows.Scan(&doc); err != nil {
			return nil, err
		}
		r := &EvalRecord{}
		if err := json.Unmarshal([]byte(doc), r); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// CountEvalRecords counts the records of dataset.
func (db *DB) CountEvalRecords(ctx context.Context, q Querier, company, dataset string) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM mlflow_eval_dataset_records WHERE company = ? AND dataset = ?`, company, dataset).Scan(&n)
	return n, err
}
