package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/trove-ml/trove/internal/jsonx"
)

// IDName is a reference with the referenced record's name.
type IDName struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Worker is a registered worker (an agent), in the shape the API returns
// before the queue and task details are filled in. One worker id under two
// users is two workers, as in the reference.
type Worker struct {
	// Key identifies the worker: company, user and worker id.
	Key              string      `json:"key"`
	ID               string      `json:"id"`
	User             IDName      `json:"user"`
	Company          IDName      `json:"company"`
	IP               string      `json:"ip,omitempty"`
	Task             *IDName     `json:"task,omitempty"`
	Project          *IDName     `json:"project,omitempty"`
	Queue            string      `json:"queue,omitempty"`
	Queues           []string    `json:"queues"`
	RegisterTime     jsonx.Time  `json:"register_time"`
	RegisterTimeout  int         `json:"register_timeout"`
	LastActivityTime jsonx.Time  `json:"last_activity_time"`
	LastReportTime   *jsonx.Time `json:"last_report_time,omitempty"`
	Tags             []string    `json:"tags"`
	SystemTags       []string    `json:"system_tags"`
}

// WorkerKey is the key of a worker id registered by a user of a company.
func WorkerKey(company, user, worker string) string {
	return "worker_" + company + "_" + user + "_" + worker
}

// Expires is when the worker drops out (epoch ms): its timeout after the
// last register or status report.
func (w *Worker) Expires() int64 {
	return w.LastActivityTime.Millis() + int64(w.RegisterTimeout)*1000
}

// RecordID implements Record.
func (w *Worker) RecordID() string { return w.Key }

// ColumnValues implements Record.
func (w *Worker) ColumnValues() []any {
	return []any{w.Company.ID, w.User.ID, w.ID, w.LastActivityTime.Millis(), w.Expires(), JSONArray(w.Tags), JSONArray(w.SystemTags)}
}

// Workers is the workers table. Rows past their expiry are dead: read
// them through LiveWorkers.
func (db *DB) Workers() *Table[Worker, *Worker] {
	return &Table[Worker, *Worker]{DB: db, Name: "workers",
		Cols: []string{"company", "user_id", "worker", "last_activity", "expires", "tags", "system_tags"}}
}

// WorkerFilter narrows a LiveWorkers read.
type WorkerFilter struct {
	// ActiveSince keeps workers active at or after it (epoch ms; 0 = all).
	ActiveSince int64
	// Conds (with Args) are more conditions, as the list-query builder
	// writes them (tag filters).
	Conds []string
	Args  []any
}

// LiveWorkers lists the company's workers not expired at now (epoch ms)
// that pass the filter, ordered by worker id.
func (db *DB) LiveWorkers(ctx context.Context, q Querier, company string, now int64, f WorkerFilter) ([]*Worker, error) {
	where, args := "company = ? AND expires > ?", []any{company, now}
	if f.ActiveSince > 0 {
		where += " AND last_activity >= ?"
		args = append(args, f.ActiveSince)
	}
	for _, c := range f.Conds {
		where += " AND " + c
	}
	return db.Workers().Select(ctx, q, where+" ORDER BY worker, id", append(args, f.Args...)...)
}

// DeleteExpiredWorkers removes the workers expired before now (epoch ms).
func (db *DB) DeleteExpiredWorkers(ctx context.Context, q Querier, now int64) (int, error) {
	res, err := q.ExecContext(ctx, `DELETE FROM workers WHERE expires <= ?`, now)
	if err != nil {
		return 0, err
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// SaveWorker inserts or replaces a worker.
func (db *DB) SaveWorker(ctx context.Context, q Querier, w *Worker) error {
	doc, err := json.Marshal(w)
	if err != nil {
		return fmt.Errorf("encode worker: %w", err)
	}
	_, err = q.ExecContext(ctx, `INSERT INTO workers (id, doc, company, user_id, worker, last_activity, expires, tags, system_tags)
		VALUES (?, `+db.D.JSONParam()+`, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET doc = excluded.doc, company = excluded.company, user_id = excluded.user_id,
		worker = excluded.worker, last_activity = excluded.last_activity, expires = excluded.expires,
		tags = excluded.tags, system_tags = excluded.system_tags`,
		append([]any{w.Key, string(doc)}, w.ColumnValues()...)...)
	return err
}
