package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/trove-ml/trove/internal/jsonx"
)

// Queue is a stored queue document (entries live in queue_entries).
type Queue struct {
	ID         string                   `json:"id"`
	Company    string                   `json:"company"`
	User       string                   `json:"user,omitempty"`
	Name       string                   `json:"name"`
	Created    jsonx.Time               `json:"created"`
	LastUpdate jsonx.Time               `json:"last_update"`
	Tags       []string                 `json:"tags"`
	SystemTags []string                 `json:"system_tags"`
	Metadata   map[string]*MetadataItem `json:"metadata"`
}

// RecordID implements Record.
func (q *Queue) RecordID() string { return q.ID }

// ColumnValues implements Record.
func (q *Queue) ColumnValues() []any {
	return []any{q.Company, q.Name, q.Created.Millis(), q.LastUpdate.Millis(), JSONArray(q.Tags), JSONArray(q.SystemTags)}
}

// Queues is the queues table.
func (db *DB) Queues() *Table[Queue, *Queue] {
	return &Table[Queue, *Queue]{DB: db, Name: "queues",
		Cols: []string{"company", "name", "created", "last_update", "tags", "system_tags"}}
}

// QueueEntry is one task waiting in a queue.
type QueueEntry struct {
	Queue string
	Task  string
	// Added is epoch milliseconds.
	Added int64
}

// ErrAlreadyQueued is returned (wrapped) when a task is already in the queue.
var ErrAlreadyQueued = errors.New("task already in queue")

// QueueChangeHook is called inside the transaction after a queue's
// entries changed (queue metrics record here).
type QueueChangeHook func(ctx context.Context, q Querier, queueID string) error

// AddQueueChangeHook registers a hook run after every entry change.
func (db *DB) AddQueueChangeHook(h QueueChangeHook) { db.queueHooks = append(db.queueHooks, h) }

func (db *DB) queueChanged(ctx context.Context, q Querier, queueID string) error {
	for _, h := range db.queueHooks {
		if err := h(ctx, q, queueID); err != nil {
			return err
		}
	}
	return nil
}

// AddQueueEntry appends task to the back of queue.
func (db *DB) AddQueueEntry(ctx context.Context, q Querier, queueID, taskID string, addedMillis int64) error {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM queue_entries WHERE queue = ? AND task = ?`, queueID, taskID).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return ErrAlreadyQueued
	}
	var maxPos sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT MAX(pos) FROM queue_entries WHERE queue = ?`, queueID).Scan(&maxPos); err != nil {
		return err
	}
	if _, err := q.ExecContext(ctx, `INSERT INTO queue_entries (queue, task, added, pos) VALUES (?, ?, ?, ?)`,
		queueID, taskID, addedMillis, maxPos.Int64+1); err != nil {
		if db.D.IsUniqueViolation(err) {
			return ErrAlreadyQueued
		}
		return err
	}
	return db.queueChanged(ctx, q, queueID)
}

// RemoveQueueEntry removes task from queue and reports whether it was there.
func (db *DB) RemoveQueueEntry(ctx context.Context, q Querier, queueID, taskID string) (bool, error) {
	res, err := q.ExecContext(ctx, `DELETE FROM queue_entries WHERE queue = ? AND task = ?`, queueID, taskID)
	if err != nil {
		return false, err
	}
	n, _ := res.RowsAffected()
	if n == 0 {
		return false, nil
	}
	return true, db.queueChanged(ctx, q, queueID)
}

// RemoveTaskFromQueues removes task from every queue except keep ("" =
// none kept) and returns how many entries were removed.
func (db *DB) RemoveTaskFromQueues(ctx context.Context, q Querier, taskID, keep string) (int, error) {
	queues, err := IDs(ctx, q, `SELECT queue FROM queue_entries WHERE task = ? AND queue <> ?`, taskID, keep)
	if err != nil {
		return 0, err
	}
	for _, qid := range queues {
		if _, err := db.RemoveQueueEntry(ctx, q, qid, taskID); err != nil {
			return 0, err
		}
	}
	return len(queues), nil
}

// QueueEntries lists a queue's entries in order (limit <= 0 = all).
func (db *DB) QueueEntries(ctx context.Context, q Querier, queueID string, limit int) ([]QueueEntry, error) {
	query := `SELECT queue, task, added FROM queue_entries WHERE queue = ? ORDER BY pos`
	args := []any{queueID}
	if limit > 0 {
		query += " LIMIT ?"
		args = append(args, limit)
	}
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []QueueEntry
	for rows.Next() {
		var e QueueEntry
		if err := rows.Scan(&e.Queue, &e.Task, &e.Added); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}
