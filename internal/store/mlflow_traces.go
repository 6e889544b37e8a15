package store

import (
	"context"
	"encoding/json"
	"strings"
)

// MLflow 3's traces (issue 38), table mlflow_traces (migration 0130): the
// columns searches order and page by, the rest a JSON document.

// Trace is a trace's info.
type Trace struct {
	ID           string
	ExperimentID string
	// RequestTime is the start, epoch ms; Duration the execution time, ms.
	RequestTime int64
	Duration    int64
	// State is MLflow's: OK, ERROR, IN_PROGRESS, STATE_UNSPECIFIED.
	State string
	Doc   TraceDoc
}

// TraceDoc is the document part of a trace.
type TraceDoc struct {
	ClientRequestID string            `json:"client_request_id,omitempty"`
	RequestPreview  string            `json:"request_preview,omitempty"`
	ResponsePreview string            `json:"response_preview,omitempty"`
	Tags            map[string]string `json:"tags,omitempty"`
	Metadata        map[string]string `json:"metadata,omitempty"`
	// RunIDs are the runs the trace was linked to (link-to-run).
	RunIDs []string `json:"run_ids,omitempty"`
}

const traceColumns = `trace_id, experiment_id, request_time, duration, state, doc`

// InsertTrace adds t (ErrDuplicate when the company has its id).
func (db *DB) InsertTrace(ctx context.Context, q Querier, company string, t *Trace) error {
	doc, err := json.Marshal(t.Doc)
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `INSERT INTO mlflow_traces (company, `+traceColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		company, t.ID, t.ExperimentID, t.RequestTime, t.Duration, t.State, string(doc))
	if db.D.IsUniqueViolation(err) {
		return ErrDuplicate
	}
	return err
}

// UpdateTrace rewrites trace t.ID.
func (db *DB) UpdateTrace(ctx context.Context, q Querier, company string, t *Trace) error {
	doc, err := json.Marshal(t.Doc)
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `UPDATE mlflow_traces SET experiment_id = ?, request_time = ?, duration = ?, state = ?, doc = ?
		WHERE company = ? AND trace_id = ?`, t.ExperimentID, t.RequestTime, t.Duration, t.State, string(doc), company, t.ID)
	return err
}

func scanTrace(sc interface{ Scan(...any) error }) (*Trace, error) {
	t := &Trace{}
	var doc string
	if err := sc.Scan(&t.ID, &t.ExperimentID, &t.RequestTime, &t.Duration, &t.State, &doc); err != nil {
		return nil, err
	}
	return t, json.Unmarshal([]byte(doc), &t.Doc)
}

// GetTrace reads trace id (ErrNotFound when none); forUpdate locks its
// row on PostgreSQL.
func (db *DB) GetTrace(ctx context.Context, q Querier, company, id string, forUpdate bool) (*Trace, error) {
	sql := `SELECT ` + traceColumns + ` FROM mlflow_traces WHERE company = ? AND trace_id = ?`
	if forUpdate && db.IsPostgres() {
		sql += ` FOR UPDATE`
	}
	t, err := scanTrace(q.QueryRowContext(ctx, sql, company, id))
	if err != nil {
		return nil, NoRow(err, "trace")
	}
	return t, nil
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// ExperimentTraces lists the traces of experiments, newest first (then
// by id), at most limit of them.
func (db *DB) ExperimentTraces(ctx context.Context, company string, experiments []string, limit int) ([]*Trace, error) {
	if len(experiments) == 0 {
		return nil, nil
	}
	args := []any{company}
	for _, e := range experiments {
		args = append(args, e)
	}
	args = append(args, limit)
	rows, err := db.Read().QueryContext(ctx, `SELECT `+traceColumns+` FROM mlflow_traces
		WHERE company = ? AND experiment_id IN (`+placeholders(len(experiments))+`)
		ORDER BY request_time DESC, trace_id LIMIT ?`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Trace
	for rows.Next() {
		t, err := scanTrace(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// OldTraceIDs lists the ids of an experiment's traces started at or
// before maxTime (epoch ms), oldest first, at most limit.
func (db *DB) OldTraceIDs(ctx context.Context, q Querier, company, experiment string, maxTime int64, limit int) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT trace_id FROM mlflow_traces
		WHERE company = ? AND experiment_id = ? AND request_time <= ? ORDER BY request_time, trace_id LIMIT ?`,
		company, experiment, maxTime, limit)
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

// DeleteTraces removes the traces ids (with their spans and assessments)
// and answers how many traces were removed.
func (db *DB) DeleteTraces(ctx context.Context, q Querier, company string, ids []string) (int64, error) {
	var total int64
	for len(ids) > 0 {
		part := ids[:min(len(ids), 500)]
		ids = ids[len(part):]
		args := []any{company}
		for _, id := range part {
			args = append(args, id)
		}
		in := placeholders(len(part))
		res, err := q.ExecContext(ctx, `DELETE FROM mlflow_traces WHERE company = ? AND trace_id IN (`+in+`)`, args...)
		if err != nil {
			return 0, err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return 0, err
		}
		total += n
		for _, table := range []string{"mlflow_trace_spans", "mlflow_assessments"} {
			if _, err := q.ExecContext(ctx, `DELETE FROM `+table+` WHERE company = ? AND trace_id IN (`+in+`)`, args...); err != nil {
				return 0, err
			}
		}
	}
	return total, nil
}
