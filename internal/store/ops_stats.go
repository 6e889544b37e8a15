package store

import "context"

// QueueStat is the current state of one queue, for monitoring.
type QueueStat struct {
	ID, Name, Company string
	Length            int
	// OldestAdded and SumAdded are the oldest and the sum of the entries'
	// added times (epoch ms; 0 when empty).
	OldestAdded, SumAdded int64
}

// QueueStats lists every queue with its length and entry times.
func (db *DB) QueueStats(ctx context.Context) ([]QueueStat, error) {
	rows, err := db.Read().QueryContext(ctx, `SELECT q.id, q.name, q.company, COUNT(e.task),
		COALESCE(MIN(e.added), 0), COALESCE(SUM(e.added), 0)
		FROM queues q LEFT JOIN queue_entries e ON e.queue = q.id
		GROUP BY q.id, q.name, q.company ORDER BY q.id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []QueueStat
	for rows.Next() {
		var s QueueStat
		if err := rows.Scan(&s.ID, &s.Name, &s.Company, &s.Length, &s.OldestAdded, &s.SumAdded); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// WorkerCounts counts the workers alive at now (epoch ms) and, of them,
// those running a task.
func (db *DB) WorkerCounts(ctx context.Context, now int64) (live, running int, err error) {
	err = db.Read().QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN `+db.D.JSONText("doc")+
		` IS NULL THEN 0 ELSE 1 END), 0) FROM workers WHERE expires > ?`,
		db.D.JSONPathArg([]string{"task", "id"}), now).Scan(&live, &running)
	return live, running, err
}
