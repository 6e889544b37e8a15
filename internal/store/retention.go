package store

import "context"

// PruneStats deletes queue-metric samples, worker and serving statistics taken
// before the given time (epoch ms) and returns how many rows went. It
// deletes company by company so each statement walks the (company, ts)
// indexes instead of the whole table.
func (db *DB) PruneStats(ctx context.Context, before int64) (int64, error) {
	rows, err := db.Read().QueryContext(ctx, `SELECT id FROM companies ORDER BY id`)
	if err != nil {
		return 0, err
	}
	var companies []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, err
		}
		companies = append(companies, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	var total int64
	for _, c := range companies {
		for _, stmt := range []string{
			`DELETE FROM queue_metrics WHERE company = ? AND ts < ?`,
			`DELETE FROM worker_stats WHERE company = ? AND ts < ?`,
			`DELETE FROM serving_stats WHERE company = ? AND ts < ?`,
		} {
			res, err := db.Write().ExecContext(ctx, stmt, c, before)
			if err != nil {
				return total, err
			}
			n, _ := res.RowsAffected()
			total += n
		}
	}
	return total, nil
}
