package store

import (
	"context"
	"strings"
)

// WorkerStat is one machine statistic of a worker status report.
type WorkerStat struct {
	Company string
	Worker  string
	// At is epoch milliseconds.
	At int64
	// Task is the task the worker ran ("" = none).
	Task     string
	Category string
	Metric   string
	Variant  string
	Value    float64
}

// InsertWorkerStats stores statistics in one statement.
func (db *DB) InsertWorkerStats(ctx context.Context, q Querier, stats []WorkerStat) error {
	if len(stats) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString(`INSERT INTO worker_stats (company, worker, ts, task, category, metric, variant, value) VALUES `)
	args := make([]any, 0, len(stats)*8)
	for i, s := range stats {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(?, ?, ?, ?, ?, ?, ?, ?)")
		args = append(args, s.Company, s.Worker, s.At, nullable(s.Task), s.Category, s.Metric, s.Variant, s.Value)
	}
	_, err := q.ExecContext(ctx, b.String(), args...)
	return err
}

// StatKey is a category and metric with how many values were stored.
type StatKey struct {
	Category string
	Metric   string
	Count    int
}

// WorkerStatKeys lists the categories and metrics stored for the company's
// workers (all of them when workers is empty), most frequent first.
func (db *DB) WorkerStatKeys(ctx context.Context, q Querier, company string, workers []string) ([]StatKey, error) {
	where, args := "company = ?", []any{company}
	if len(workers) > 0 {
		where += " AND worker IN (" + Placeholders(len(workers)) + ")"
		args = append(args, Args(workers)...)
	}
	rows, err := q.QueryContext(ctx, `SELECT category, metric, COUNT(*) AS n FROM worker_stats WHERE `+where+
		` GROUP BY category, metric ORDER BY n DESC, category, metric`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []StatKey
	for rows.Next() {
		var k StatKey
		if err := rows.Scan(&k.Category, &k.Metric, &k.Count); err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// StatsRange selects worker statistics of a company.
type StatsRange struct {
	Company string
	// From and To bound the statistic times (epoch ms, inclusive).
	From, To int64
	// Bucket is the bucket width in ms; buckets start at multiples of it.
	Bucket int64
	// Workers limits the workers (empty = all).
	Workers []string
}

func (r StatsRange) where() (string, []any) {
	where, args := "company = ? AND ts >= ? AND ts <= ?", []any{r.Company, r.From, r.To}
	if len(r.Workers) > 0 {
		where += " AND worker IN (" + Placeholders(len(r.Workers)) + ")"
		args = append(args, Args(r.Workers)...)
	}
	return where, args
}

// StatBucket is the aggregate of one worker's metric (and variant, when
// split) over one time bucket.
type StatBucket struct {
	Worker, Metric, Variant string
	// At is the bucket start (epoch ms).
	At            int64
	Avg, Min, Max float64
}

// AggregateWorkerStats aggregates the metrics per worker, metric (and
// variant when byVariant) and bucket, ordered by those keys.
func (db *DB) AggregateWorkerStats(ctx context.Context, q Querier, r StatsRange, metrics []string, byVariant bool) ([]StatBucket, error) {
	where, wargs := r.where()
	where += " AND metric IN (" + Placeholders(len(metrics)) + ")"
	wargs = append(wargs, Args(metrics)...)
	variant, group := "''", "worker, metric, bucket"
	if byVariant {
		variant, group = "variant", "worker, metric, variant, bucket"
	}
	args := append([]any{r.Bucket, r.Bucket}, wargs...)
	rows, err := q.QueryContext(ctx, `SELECT worker, metric, `+variant+` AS v, (ts / ?) * ? AS bucket,
		AVG(value), MIN(value), MAX(value) FROM worker_stats WHERE `+where+`
		GROUP BY `+group+` ORDER BY `+group, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []StatBucket
	for rows.Next() {
		var s StatBucket
		if err := rows.Scan(&s.Worker, &s.Metric, &s.Variant, &s.At, &s.Avg, &s.Min, &s.Max); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// WorkerActivity counts, per bucket start (epoch ms), the distinct workers
// that stored statistics in it; activeOnly counts only statistics taken
// while running a task.
func (db *DB) WorkerActivity(ctx context.Context, q Querier, r StatsRange, activeOnly bool) (map[int64]int, error) {
	where, wargs := r.where()
	if activeOnly {
		where += " AND task IS NOT NULL"
	}
	args := append([]any{r.Bucket, r.Bucket}, wargs...)
	rows, err := q.QueryContext(ctx, `SELECT (ts / ?) * ? AS bucket, COUNT(DISTINCT worker) FROM worker_stats WHERE `+where+
		` GROUP BY bucket`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]int{}
	for rows.Next() {
		var at int64
		var n int
		if err := rows.Scan(&at, &n); err != nil {
			return nil, err
		}
		out[at] = n
	}
	return out, rows.Err()
}
