package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
)

// The latest value of each metric key of MLflow runs, in table
// mlflow_latest_metrics beside the runs' documents (which hold the same
// values, with their text, step and timestamp): runs/search compares and
// orders by them through an index instead of reading every document.
//
// A write marks the run in mlflow_latest_pending (one small row) rather
// than rewriting its rows; SyncLatestMetrics copies the marked runs'
// values from their documents, in the background and before any read of
// the rows (a search). A run reporting many keys often then rewrites its
// rows once a sync, not once a batch.

// LatestNum is a metric key's latest value; Num is nil when the value is
// NaN or ±inf.
type LatestNum struct {
	Key string
	Num *float64
}

// MLflowLatestMetric is the SQL of a tasks row's latest finite value of
// one metric key (its one argument), NULL when it has none.
const MLflowLatestMetric = `SELECT num FROM mlflow_latest_metrics WHERE mlflow_latest_metrics.task = tasks.id AND metric_key = ?`

// MLflowLatestDriver walks the finite latest values of one metric key in
// order (index mlflow_latest_metrics_num), for searches ordered by it.
func MLflowLatestDriver(key string) *Driver {
	return &Driver{From: "mlflow_latest_metrics lm", Where: "lm.metric_key = ? AND lm.num IS NOT NULL",
		Args: []any{key}, Row: "lm.task", Value: "lm.num"}
}

// SetLatestMetrics writes task's latest values of the given keys.
func (db *DB) SetLatestMetrics(ctx context.Context, q Querier, task string, ls []LatestNum) error {
	return InsertRows(ctx, q, db.D, `INSERT INTO mlflow_latest_metrics (task, metric_key, num)`, "(?, ?, ?)", 3,
		` ON CONFLICT (task, metric_key) DO UPDATE SET num = excluded.num`, len(ls), func(args []any, i int) []any {
			var num any
			if l := ls[i]; l.Num != nil {
				num = *l.Num
			}
			return append(args, task, ls[i].Key, num)
		})
}

// DeleteLatestMetrics removes the latest values of tasks (deleted).
func (db *DB) DeleteLatestMetrics(ctx context.Context, q Querier, tasks []string) error {
	if len(tasks) == 0 {
		return nil
	}
	if _, err := q.ExecContext(ctx, `DELETE FROM mlflow_latest_pending WHERE task IN (`+Placeholders(len(tasks))+`)`, Args(tasks)...); err != nil {
		return err
	}
	_, err := q.ExecContext(ctx, `DELETE FROM mlflow_latest_metrics WHERE task IN (`+Placeholders(len(tasks))+`)`, Args(tasks)...)
	return err
}

// MarkLatestPending marks task's latest values as changed in its
// document. The mark is an update when present: on PostgreSQL it waits
// for a sync that holds it, so a sync never misses a change it did not
// read.
func (db *DB) MarkLatestPending(ctx context.Context, q Querier, task string) error {
	_, err := q.ExecContext(ctx, `INSERT INTO mlflow_latest_pending (task, seq) VALUES (?, 1)
		ON CONFLICT (task) DO UPDATE SET seq = mlflow_latest_pending.seq + 1`, task)
	return err
}

// LatestPending reports whether some run's latest values wait for a sync.
func (db *DB) LatestPending(ctx context.Context) (bool, error) {
	var one int
	err := db.Read().QueryRowContext(ctx, `SELECT 1 FROM mlflow_latest_pending LIMIT 1`).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// SyncLatestMetrics copies the latest values of up to limit marked runs
// from their documents into mlflow_latest_metrics, unmarking them, and
// returns how many it took. Claiming the marks first (deleting them)
// orders a sync after the writes it reads: a write's mark that comes
// later is a new one.
func (db *DB) SyncLatestMetrics(ctx context.Context, limit int) (int, error) {
	n := 0
	err := db.Tx(ctx, func(q Querier) error {
		rows, err := q.QueryContext(ctx, `DELETE FROM mlflow_latest_pending WHERE task IN
			(SELECT task FROM mlflow_latest_pending ORDER BY task LIMIT ?) RETURNING task`, limit)
		if err != nil {
			return err
		}
		var ids []string
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			ids = append(ids, id)
		}
		if err := rows.Close(); err != nil {
			return err
		}
		if err := rows.Err(); err != nil {
			return err
		}
		n = len(ids)
		if n == 0 {
			return nil
		}
		slices.Sort(ids)
		docs, err := db.latestOfDocs(ctx, q, ids)
		if err != nil {
			return err
		}
		for _, id := range ids {
			ms := docs[id]
			ls := make([]LatestNum, 0, len(ms))
			for _, k := range slices.Sorted(maps.Keys(ms)) {
				if m := ms[k]; m != nil {
					ls = append(ls, LatestNum{Key: k, Num: m.Num})
				}
			}
			if err := db.SetLatestMetrics(ctx, q, id, ls); err != nil {
				return err
			}
		}
		return nil
	})
	return n, err
}

// latestOfDocs reads the latest values kept in the documents of tasks
// (mlflow.metrics), taken out of each document in SQL.
func (db *DB) latestOfDocs(ctx context.Context, q Querier, ids []string) (map[string]map[string]*LatestMetric, error) {
	args := append([]any{db.D.JSONPathArg([]string{"mlflow", "metrics"})}, Args(ids)...)
	rows, err := q.QueryContext(ctx, `SELECT id, `+db.D.JSONText("doc")+` FROM tasks WHERE id IN (`+Placeholders(len(ids))+`)`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make(map[string]map[string]*LatestMetric, len(ids))
	for rows.Next() {
		var id string
		var doc sql.NullString
		if err := rows.Scan(&id, &doc); err != nil {
			return nil, err
		}
		if !doc.Valid {
			continue
		}
		var ms map[string]*LatestMetric
		if err := json.Unmarshal([]byte(doc.String), &ms); err != nil {
			return nil, fmt.Errorf("task %s: mlflow.metrics: %w", id, err)
		}
		out[id] = ms
	}
	return out, rows.Err()
}

// SyncAllLatestMetrics syncs every marked run, in rounds of limit, until
// none is marked: a search then reads every value written before it
// started. Rounds shrink as they catch up with concurrent writes; at most
// 1,000 are run.
func (db *DB) SyncAllLatestMetrics(ctx context.Context, limit int) error {
	for range 1000 {
		pending, err := db.LatestPending(ctx)
		if err != nil || !pending {
			return err
		}
		if n, err := db.SyncLatestMetrics(ctx, limit); err != nil || n == 0 {
			return err
		}
	}
	return nil
}

// SyncMarkedLatestMetrics syncs about as many runs as are marked when it
// starts, in rounds of limit: the background pass, which leaves the marks
// of writes made meanwhile to the next pass.
func (db *DB) SyncMarkedLatestMetrics(ctx context.Context, limit int) error {
	var marked int
	if err := db.Read().QueryRowContext(ctx, `SELECT COUNT(*) FROM mlflow_latest_pending`).Scan(&marked); err != nil {
		return err
	}
	for marked > 0 {
		n, err := db.SyncLatestMetrics(ctx, limit)
		if err != nil || n == 0 {
			return err
		}
		marked -= n
	}
	return nil
}
