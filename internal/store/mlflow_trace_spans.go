package store

import "context"

// The spans of MLflow traces (issue 38), table mlflow_trace_spans: one
// compact JSON document a span (MLflow's span dictionary), as OTLP or
// the trace endpoints bring them. Spans uploaded by the client as the
// traces.json artifact stay in the file storage.

// TraceSpan is one stored span.
type TraceSpan struct {
	SpanID string
	Doc    string
}

// PutTraceSpans stores spans of trace (a span sent again replaces the
// stored one).
func (db *DB) PutTraceSpans(ctx context.Context, q Querier, company, trace string, spans []TraceSpan) error {
	for _, sp := range spans {
		if _, err := q.ExecContext(ctx, `INSERT INTO mlflow_trace_spans (company, trace_id, span_id, doc) VALUES (?, ?, ?, ?)
			ON CONFLICT (company, trace_id, span_id) DO UPDATE SET doc = excluded.doc`,
			company, trace, sp.SpanID, sp.Doc); err != nil {
			return err
		}
	}
	return nil
}

// TraceSpans reads the stored spans of trace, at most limit.
func (db *DB) TraceSpans(ctx context.Context, company, trace string, limit int) ([]TraceSpan, error) {
	rows, err := db.Read().QueryContext(ctx, `SELECT span_id, doc FROM mlflow_trace_spans
		WHERE company = ? AND trace_id = ? ORDER BY span_id LIMIT ?`, company, trace, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []TraceSpan
	for rows.Next() {
		var sp TraceSpan
		if err := rows.Scan(&sp.SpanID, &sp.Doc); err != nil {
			return nil, err
		}
		out = append(out, sp)
	}
	return out, rows.Err()
}
