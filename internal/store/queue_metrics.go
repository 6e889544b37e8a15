package store

import (
	"context"
)

// QueueSample is one queue-metrics sample.
type QueueSample struct {
	Company string
	Queue   string
	// At is epoch milliseconds.
	At     int64
	Length int
	// AvgWaiting is the mean time the entries have waited, in seconds.
	AvgWaiting float64
}

// SampleQueue records the queue's current length and mean waiting time
// (seconds since each entry was added, at the given time in epoch ms) as a
// sample taken at that time, in one statement.
func (db *DB) SampleQueue(ctx context.Context, q Querier, company, queueID string, at int64) error {
	_, err := q.ExecContext(ctx, `INSERT INTO queue_metrics (company, queue, ts, queue_length, avg_waiting)
		SELECT ?, ?, ?, COUNT(*), CASE WHEN COUNT(*) = 0 THEN 0
			ELSE (COUNT(*) * CAST(? AS BIGINT) - SUM(added)) * 1.0 / COUNT(*) / 1000 END
		FROM queue_entries WHERE queue = ?`, company, queueID, at, at, queueID)
	return err
}

// QueueSampleRange selects queue-metrics samples of a company.
type QueueSampleRange struct {
	Company string
	// From and To bound the sample times (epoch ms, inclusive).
	From, To int64
	// Queues limits the samples to these queues (empty = all).
	Queues []string
	// Bucket is the bucket width in ms; buckets start at multiples of it.
	Bucket int64
}

// TopQueueSamples returns, per queue and time bucket, the sample with the
// longest waiting time (ties: the longest queue), ordered by bucket then
// queue. Each returned sample's At is its bucket's start.
func (db *DB) TopQueueSamples(ctx context.Context, q Querier, r QueueSampleRange) ([]QueueSample, error) {
	where := "company = ? AND ts >= ? AND ts <= ?"
	args := []any{r.Bucket, r.Bucket, r.Bucket, r.Company, r.From, r.To}
	if len(r.Queues) > 0 {
		where += " AND queue IN (" + Placeholders(len(r.Queues)) + ")"
		args = append(args, Args(r.Queues)...)
	}
	rows, err := q.QueryContext(ctx, `SELECT queue, bucket, queue_length, avg_waiting FROM (
		SELECT queue, (ts / ?) * ? AS bucket, queue_length, avg_waiting,
			ROW_NUMBER() OVER (PARTITION BY queue, ts / ? ORDER BY avg_waiting DESC, queue_length DESC) AS rn
		FROM queue_metrics WHERE `+where+`) s
		WHERE rn = 1 ORDER BY bucket, queue`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []QueueSample
	for rows.Next() {
		s := QueueSample{Company: r.Company}
		if err := rows.Scan(&s.Queue, &s.At, &s.Length, &s.AvgWaiting); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// StaleQueues lists the ids and companies of queues without a metrics
// sample since the given time (epoch ms), for the periodic refresh.
func (db *DB) StaleQueues(ctx context.Context, q Querier, since int64) ([]Queue, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, company FROM queues WHERE NOT EXISTS
		(SELECT 1 FROM queue_metrics m WHERE m.queue = queues.id AND m.ts >= ?) ORDER BY id`, since)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Queue
	for rows.Next() {
		var qu Queue
		if err := rows.Scan(&qu.ID, &qu.Company); err != nil {
			return nil, err
		}
		out = append(out, qu)
	}
	return out, rows.Err()
}
