package store

import (
	"context"
	"encoding/json"
)

// The assessments of MLflow traces (issue 38), table mlflow_assessments:
// one JSON document each (MLflow's assessment, as the domain keeps it).

// InsertAssessment adds assessment id of trace with document doc.
func (db *DB) InsertAssessment(ctx context.Context, q Querier, company, trace, id string, doc any) error {
	raw, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `INSERT INTO mlflow_assessments (company, trace_id, assessment_id, doc) VALUES (?, ?, ?, ?)`,
		company, trace, id, string(raw))
	if db.D.IsUniqueViolation(err) {
		return ErrDuplicate
	}
	return err
}

// UpdateAssessment rewrites assessment id's document.
func (db *DB) UpdateAssessment(ctx context.Context, q Querier, company, id string, doc any) error {
	raw, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `UPDATE mlflow_assessments SET doc = ? WHERE company = ? AND assessment_id = ?`, string(raw), company, id)
	return err
}

// GetAssessment reads assessment id of trace into doc (ErrNotFound when
// the trace has none of that id).
func (db *DB) GetAssessment(ctx context.Context, q Querier, company, trace, id string, doc any) error {
	var raw string
	err := q.QueryRowContext(ctx, `SELECT doc FROM mlflow_assessments WHERE company = ? AND trace_id = ? AND assessment_id = ?`,
		company, trace, id).Scan(&raw)
	if err != nil {
		return NoRow(err, "assessment")
	}
	return json.Unmarshal([]byte(raw), doc)
}

// TraceAssessments reads the documents of a trace's assessments (in id
// order, at most limit).
func (db *DB) TraceAssessments(ctx context.Context, q Querier, company, trace string, limit int) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT doc FROM mlflow_assessments WHERE company = ? AND trace_id = ?
		ORDER BY assessment_id LIMIT ?`, company, trace, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var raw string
		if err := rows.Scan(&raw); err != nil {
			return nil, err
		}
		out = append(out, raw)
	}
	return out, rows.Err()
}

// DeleteAssessment removes assessment id.
func (db *DB) DeleteAssessment(ctx context.Context, q Querier, company, id string) error {
	_, err := q.ExecContext(ctx, `DELETE FROM mlflow_assessments WHERE company = ? AND assessment_id = ?`, company, id)
	return err
}
