package store

import (
	"context"
	"database/sql"
)

// MLflow 3's scorers (issue 38): table mlflow_scorers, the numbered
// versions of a named scorer of an experiment (a project id). The
// serialized definition is data, stored and answered, never run.

// Scorer is one scorer version.
type Scorer struct {
	Experiment string
	Name       string
	Version    int64
	Created    int64
	Serialized string
}

// LastScorerVersion is the highest version of scorer name in experiment
// (0 when none).
func (db *DB) LastScorerVersion(ctx context.Context, q Querier, company, experiment, name string) (int64, error) {
	var v sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT MAX(version) FROM mlflow_scorers WHERE company = ? AND experiment = ? AND name = ?`,
		company, experiment, name).Scan(&v)
	return v.Int64, err
}

// InsertScorer adds a version (ErrDuplicate when its number is taken).
func (db *DB) InsertScorer(ctx context.Context, q Querier, company string, s *Scorer) error {
	_, err := q.ExecContext(ctx, `INSERT INTO mlflow_scorers (company, experiment, name, version, created, serialized) VALUES (?, ?, ?, ?, ?, ?)`,
		company, s.Experiment, s.Name, s.Version, s.Created, s.Serialized)
	if db.D.IsUniqueViolation(err) {
		return ErrDuplicate
	}
	return err
}

// Scorers lists the versions of experiment's scorers, by name and
// version; name "" lists every scorer's, version 0 every version.
func (db *DB) Scorers(ctx context.Context, company, experiment, name string, version int64) ([]*Scorer, error) {
	q, args := `SELECT experiment, name, version, created, serialized FROM mlflow_scorers WHERE company = ? AND experiment = ?`, []any{company, experiment}
	if name != "" {
		q, args = q+` AND name = ?`, append(args, name)
	}
	if version > 0 {
		q, args = q+` AND version = ?`, append(args, version)
	}
	rows, err := db.Read().QueryContext(ctx, q+` ORDER BY name, version`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Scorer
	for rows.Next() {
		s := &Scorer{}
		if err := rows.Scan(&s.Experiment, &s.Name, &s.Version, &s.Created, &s.Serialized); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// DeleteScorers removes versions of scorer name (version 0: all) and
// says how many went.
func (db *DB) DeleteScorers(ctx context.Context, q Querier, company, experiment, name string, version int64) (int64, error) {
	sqlText, args := `DELETE FROM mlflow_scorers WHERE company = ? AND experiment = ? AND name = ?`, []any{company, experiment, name}
	if version > 0 {
		sqlText, args = sqlText+` AND version = ?`, append(args, version)
	}
	res, err := q.ExecContext(ctx, sqlText, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
