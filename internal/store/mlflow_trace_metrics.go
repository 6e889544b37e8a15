package store

import (
	"context"
	"encoding/json"
)

// The reads behind MLflow's trace metrics (traces/metrics, issue 38): the
// experiments' traces in a time range, newest first, and then the spans
// or assessments of those traces, row by row. The aggregation is done by
// the caller (internal/mlflow), over reads bounded here by a limit,
// because the values it aggregates (token usage, span attributes,
// assessment values) are inside JSON documents whose extraction differs
// between the two dialects.

// TraceRead says what TracesInRange reads besides the columns: the whole
// document's tags, metadata and linked runs (Doc), or only some tags and
// metadata entries, taken out of the document in SQL (a document with
// its previews is the larger part of a row).
type TraceRead struct {
	Doc            bool
	Tags, Metadata []string
}

// TracesInRange lists the traces of experiments started within [from,
// to] (epoch ms; nil: open), newest first (then by id), at most limit,
// with what read asks of their documents in Doc (never the previews).
func (db *DB) TracesInRange(ctx context.Context, company string, experiments []string, from, to *int64, limit int, read TraceRead) ([]*Trace, error) {
	if len(experiments) == 0 {
		return nil, nil
	}
	cols := `trace_id, experiment_id, request_time, duration, state`
	var args []any
	if read.Doc {
		cols += `, doc`
	} else {
		doc := db.D.JSONOfText("doc")
		for _, k := range read.Tags {
			cols += `, ` + db.D.JSONText(doc)
			args = append(args, db.D.JSONPathArg([]string{"tags", k}))
		}
		for _, k := range read.Metadata {
			cols += `, ` + db.D.JSONText(doc)
			args = append(args, db.D.JSONPathArg([]string{"metadata", k}))
		}
	}
	args = append(args, company)
	for _, e := range experiments {
		args = append(args, e)
	}
	where := ``
	if from != nil {
		where += ` AND request_time >= ?`
		args = append(args, *from)
	}
	if to != nil {
		where += ` AND request_time <= ?`
		args = append(args, *to)
	}
	args = append(args, limit)
	rows, err := db.Read().QueryContext(ctx, `SELECT `+cols+` FROM mlflow_traces
		WHERE company = ? AND experiment_id IN (`+placeholders(len(experiments))+`)`+where+`
		ORDER BY request_time DESC, trace_id LIMIT ?`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Trace
	for rows.Next() {
		t := &Trace{}
		dest := []any{&t.ID, &t.ExperimentID, &t.RequestTime, &t.Duration, &t.State}
		var doc string
		extracted := make([]*string, len(read.Tags)+len(read.Metadata))
		if read.Doc {
			dest = append(dest, &doc)
		} else {
			for i := range extracted {
				dest = append(dest, &extracted[i])
			}
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		if read.Doc {
			var d struct {
				Tags     map[string]string `json:"tags"`
				Metadata map[string]string `json:"metadata"`
				RunIDs   []string          `json:"run_ids"`
			}
			if err := json.Unmarshal([]byte(doc), &d); err != nil {
				return nil, err
			}
			t.Doc = TraceDoc{Tags: d.Tags, Metadata: d.Metadata, RunIDs: d.RunIDs}
		} else if len(extracted) > 0 {
			t.Doc = TraceDoc{Tags: map[string]string{}, Metadata: map[string]string{}}
			for i, v := range extracted {
				if v == nil {
					continue
				}
				if i < len(read.Tags) {
					t.Doc.Tags[read.Tags[i]] = *v
				} else {
					t.Doc.Metadata[read.Metadata[i-len(read.Tags)]] = *v
				}
			}
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// EachTraceSpan calls fn with each stored span document of traces (at
// most limit spans in all), so the caller keeps only what it reads out
// of each.
func (db *DB) EachTraceSpan(ctx context.Context, company string, traces []string, limit int, fn func(trace, doc string) error) error {
	return db.eachTraceRow(ctx, `mlflow_trace_spans`, company, traces, limit, fn)
}

// EachTraceAssessment calls fn with each assessment document of traces
// (at most limit in all).
func (db *DB) EachTraceAssessment(ctx context.Context, company string, traces []string, limit int, fn func(trace, doc string) error) error {
	return db.eachTraceRow(ctx, `mlflow_assessments`, company, traces, limit, fn)
}

// eachTraceRow reads the (trace_id, doc) rows of table for traces, 500
// traces a statement.
func (db *DB) eachTraceRow(ctx context.Context, table, company string, traces []string, limit int, fn func(trace, doc string) error) error {
	for len(traces) > 0 && limit > 0 {
		part := traces[:min(len(traces), 500)]
		traces = traces[len(part):]
		args := []any{company}
		for _, id := range part {
			args = append(args, id)
		}
		args = append(args, limit)
		rows, err := db.Read().QueryContext(ctx, `SELECT trace_id, doc FROM `+table+`
			WHERE company = ? AND trace_id IN (`+placeholders(len(part))+`) LIMIT ?`, args...)
		if err != nil {
			return err
		}
		for rows.Next() {
			var trace, doc string
			if err := rows.Scan(&trace, &doc); err != nil {
				rows.Close()
				return err
			}
			limit--
			if err := fn(trace, doc); err != nil {
				rows.Close()
				return err
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
