package store

import (
	"context"
	"database/sql"
)

// The company totals of server.get_stats (the usage report).

// RunStats summarize tasks that ran: how many, their mean run time
// (seconds from start to last update) and mean last iteration.
type RunStats struct {
	// Worker is the last worker that ran them ("" for the company total).
	Worker        string
	Count         int
	AvgRunTimeSec float64
	AvgIterations float64
}

// CompanyRunStats summarizes the company's started tasks past the queue,
// in total and (byWorker) per last worker.
func (db *DB) CompanyRunStats(ctx context.Context, company string, byWorker bool) ([]RunStats, error) {
	worker, group, args := "''", "", []any{}
	if byWorker {
		worker, group = db.D.JSONText("doc"), " GROUP BY 1"
		args = append(args, db.D.JSONPathArg([]string{"last_worker"}))
	}
	iter := db.D.Num(db.D.JSONText("doc"))
	args = append(args, db.D.JSONPathArg([]string{"last_iteration"}), company)
	rows, err := db.Read().QueryContext(ctx, `SELECT `+worker+`, COUNT(*), AVG(last_update - started), AVG(`+iter+`)
		FROM tasks WHERE company = ? AND started IS NOT NULL AND status NOT IN ('created', 'queued')`+group, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []RunStats
	for rows.Next() {
		var w sql.NullString
		var s RunStats
		var run, it sql.NullFloat64
		if err := rows.Scan(&w, &s.Count, &run, &it); err != nil {
			return nil, err
		}
		if s.Count == 0 || (byWorker && w.String == "") {
			continue
		}
		s.Worker, s.AvgRunTimeSec, s.AvgIterations = w.String, run.Float64/1000, it.Float64
		out = append(out, s)
	}
	return out, rows.Err()
}

// WorkerMetricSummary is the range of one worker's metric since a time,
// and how many devices (variants) reported it.
type WorkerMetricSummary struct {
	Worker, Metric string
	Min, Max, Avg  float64
	Devices        int
}

// WorkerMetricSummaries summarizes the named metrics of the company's
// workers since (epoch ms), by worker and metric.
func (db *DB) WorkerMetricSummaries(ctx context.Context, company string, since int64, metrics []string) ([]WorkerMetricSummary, error) {
	args := append([]any{company, since}, Args(metrics)...)
	rows, err := db.Read().QueryContext(ctx, `SELECT worker, metric, MIN(value), MAX(value), AVG(value), COUNT(DISTINCT variant)
		FROM worker_stats WHERE company = ? AND ts >= ? AND metric IN (`+Placeholders(len(metrics))+`)
		GROUP BY worker, metric ORDER BY worker, metric`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []WorkerMetricSummary
	for rows.Next() {
		var s WorkerMetricSummary
		if err := rows.Scan(&s.Worker, &s.Metric, &s.Min, &s.Max, &s.Avg, &s.Devices); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
