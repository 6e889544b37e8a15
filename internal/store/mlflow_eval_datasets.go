package store

import (
	"context"
	"encoding/json"
)

// MLflow 3's evaluation datasets (issue 38): table mlflow_eval_datasets,
// one document per (company, id), and their experiment links in
// mlflow_eval_dataset_experiments (an experiment id is a project id).

// EvalDataset is an evaluation dataset's document.
type EvalDataset struct {
	ID            string            `json:"id"`
	Name          string            `json:"name"`
	Created       int64             `json:"created"`
	LastUpdate    int64             `json:"last_update"`
	CreatedBy     string            `json:"created_by,omitempty"`
	LastUpdatedBy string            `json:"last_updated_by,omitempty"`
	Digest        string            `json:"digest,omitempty"`
	Schema        string            `json:"schema,omitempty"`
	Profile       string            `json:"profile,omitempty"`
	Tags          map[string]string `json:"tags,omitempty"`
}

// PutEvalDataset inserts or rewrites d.
func (db *DB) PutEvalDataset(ctx context.Context, q Querier, company string, d *EvalDataset) error {
	doc, err := json.Marshal(d)
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `INSERT INTO mlflow_eval_datasets (company, id, name, created, doc) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (company, id) DO UPDATE SET name = excluded.name, doc = excluded.doc`, company, d.ID, d.Name, d.Created, string(doc))
	return err
}

// GetEvalDataset reads dataset id of company (ErrNotFound when none);
// forUpdate locks its row on PostgreSQL.
func (db *DB) GetEvalDataset(ctx context.Context, q Querier, company, id string, forUpdate bool) (*EvalDataset, error) {
	sql := `SELECT doc FROM mlflow_eval_datasets WHERE company = ? AND id = ?`
	if forUpdate && db.IsPostgres() {
		sql += ` FOR UPDATE`
	}
	var doc string
	if err := q.QueryRowContext(ctx, sql, company, id).Scan(&doc); err != nil {
		return nil, NoRow(err, "evaluation dataset")
	}
	d := &EvalDataset{}
	return d, json.Unmarshal([]byte(doc), d)
}

// EvalDatasets lists the company's datasets, newest first, at most
// limit of them; experiments, when given, keeps those linked to one of
// them.
func (db *DB) EvalDatasets(ctx context.Context, company string, experiments []string, limit int) ([]*EvalDataset, error) {
	sql, args := `SELECT doc FROM mlflow_eval_datasets d WHERE company = ?`, []any{company}
	if len(experiments) > 0 {
		sql += ` AND EXISTS (SELECT 1 FROM mlflow_eval_dataset_experiments e WHERE e.company = d.company AND e.dataset = d.id AND e.experiment IN (` + Placeholders(len(experiments)) + `))`
		args = append(args, Args(experiments)...)
	}
	sql += ` ORDER BY created DESC, id LIMIT ?`
	rows, err := db.Read().QueryContext(ctx, sql, append(args, limit)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*EvalDataset
	for rows.Next() {
		var doc string
		if err := rows.Scan(&doc); err != nil {
			return nil, err
		}
		d := &EvalDataset{}
		if err := json.Unmarshal([]byte(doc), d); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// DeleteEvalDataset removes dataset id, its experiment links and its
// records.
func (db *DB) DeleteEvalDataset(ctx context.Context, q Querier, company, id string) error {
	for _, t := range []string{"mlflow_eval_dataset_records", "mlflow_eval_dataset_experiments"} {
		if _, err := q.ExecContext(ctx, `DELETE FROM `+t+` WHERE company = ? AND dataset = ?`, company, id); err != nil {
			return err
		}
	}
	_, err := q.ExecContext(ctx, `DELETE FROM mlflow_eval_datasets WHERE company = ? AND id = ?`, company, id)
	return err
}

// LinkEvalDataset links dataset id to experiments (a link already there
// is kept).
func (db *DB) LinkEvalDataset(ctx context.Context, q Querier, company, id string, experiments []string) error {
	for _, e := range experiments {
		if _, err := q.ExecContext(ctx, `INSERT INTO mlflow_eval_dataset_experiments (company, dataset, experiment) VALUES (?, ?, ?)
			ON CONFLICT (company, dataset, experiment) DO NOTHING`, company, id, e); err != nil {
			return err
		}
	}
	return nil
}

// EvalDatasetExperiments lists the experiments dataset id is linked to.
func (db *DB) EvalDatasetExperiments(ctx context.Context, q Querier, company, id string) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT experiment FROM mlflow_eval_dataset_experiments WHERE company = ? AND dataset = ? ORDER BY experiment`, company, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var e string
		if err := rows.Scan(&e); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}
