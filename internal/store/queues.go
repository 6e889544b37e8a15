package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/trove-ml/trove/internal/jsonx"
)

// Queue is a stored queue document (entries live in queue_entries).
type Queue struct {
	ID          string                   `json:"id"`
	Company     string                   `json:"company"`
	User        string                   `json:"user,omitempty"`
	Name        string                   `json:"name"`
	DisplayName string                   `json:"display_name,omitempty"`
	Created     jsonx.Time               `json:"created"`
	LastUpdate  jsonx.Time               `json:"last_update"`
	Tags        []string                 `json:"tags"`
	SystemTags  []string                 `json:"system_tags"`
	Metadata    map[string]*MetadataItem `json:"metadata"`
	// Resources are what a worker listening on the queue uses (set by
	// workers.register, 2.34); project usages weigh running time by them.
	Resources *QueueResources `json:"resources,omitempty"`
}

// QueueResources are a queue's resource weights; nil means not given.
type QueueResources struct {
	CPUUsage *float64 `json:"cpu_usage,omitempty"`
	GPUUsage *float64 `json:"gpu_usage,omitempty"`
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
	// Pos orders the entries of a queue (smaller first); only relative
	// order means anything.
	Pos int64
}

// ErrAlreadyQueued is returned (wrapped) when a task is already in the queue.
var ErrAlreadyQueued = errors.New("task already in queue")

// ErrNotQueued is returned (wrapped) when a task is not in the queue.
var ErrNotQueued = errors.New("task not in queue")

// queueChanged records that a queue's entries changed, inside the
// changing transaction: the queue's last_update becomes now and a metrics
// sample is taken. Hand-outs call it just before the entry goes, so that
// the sample still counts the entry that waited (as the reference records
// it).
func (db *DB) queueChanged(ctx context.Context, q Querier, queueID string, now jsonx.Time) error {
	company, err := db.TouchQueue(ctx, q, queueID, now)
	if err != nil {
		return err
	}
	return db.SampleQueue(ctx, q, company, queueID, now.Millis())
}

// lockQueue locks the queue's row until the transaction ends. Structural
// changes of a queue's entries (removals, moves, clearing) take this lock
// first, so they are serialized across connections and Trove processes
// (on SQLite the write transaction is exclusive anyway). Appends and
// hand-outs do not take it, so that they run in parallel on PostgreSQL. A
// missing queue is ErrNotFound.
func (db *DB) lockQueue(ctx context.Context, q Querier, queueID string) error {
	var id string
	err := q.QueryRowContext(ctx, "SELECT id FROM queues WHERE id = ?"+db.D.ForUpdate(), queueID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("queue %s: %w", queueID, ErrNotFound)
	}
	return err
}

// AddQueueEntry appends task to the back of queue; the added time is also
// the time of the change (queue last_update and metrics sample). A task
// already in the queue is ErrAlreadyQueued; an unknown queue is
// ErrNotFound. Appends do not lock the queue: concurrent appends may share
// a position, and then keep the order of their added times.
func (db *DB) AddQueueEntry(ctx context.Context, q Querier, queueID, taskID string, addedMillis int64) error {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM queues WHERE id = ?`, queueID).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("queue %s: %w", queueID, ErrNotFound)
	}
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
		switch {
		case db.D.IsUniqueViolation(err):
			return ErrAlreadyQueued
		case db.D.IsForeignKeyViolation(err): // deleted meanwhile
			return fmt.Errorf("queue %s: %w", queueID, ErrNotFound)
		}
		return err
	}
	return db.queueChanged(ctx, q, queueID, jsonx.Time{Time: time.UnixMilli(addedMillis).UTC()})
}

// RemoveQueueEntry removes task from queue at time now and reports whether
// it was there (an unknown queue holds nothing).
func (db *DB) RemoveQueueEntry(ctx context.Context, q Querier, queueID, taskID string, now jsonx.Time) (bool, error) {
	if err := db.lockQueue(ctx, q, queueID); err != nil {
		if errors.Is(err, ErrNotFound) {
			return false, nil
		}
		return false, err
	}
	res, err := q.ExecContext(ctx, `DELETE FROM queue_entries WHERE queue = ? AND task = ?`, queueID, taskID)
	if err != nil {
		return false, err
	}
	n, _ := res.RowsAffected()
	if n == 0 {
		return false, nil
	}
	return true, db.queueChanged(ctx, q, queueID, now)
}

// QueuesHoldingTask lists the ids of the queues the task waits in, sorted.
func (db *DB) QueuesHoldingTask(ctx context.Context, q Querier, taskID string) ([]string, error) {
	ids, err := IDs(ctx, q, `SELECT queue FROM queue_entries WHERE task = ?`, taskID)
	if err != nil {
		return nil, err
	}
	sort.Strings(ids)
	return ids, nil
}

// RemoveTaskFromQueues removes task from every queue except keep ("" =
// none kept) at time now and returns how many entries were removed.
func (db *DB) RemoveTaskFromQueues(ctx context.Context, q Querier, taskID, keep string, now jsonx.Time) (int, error) {
	queues, err := IDs(ctx, q, `SELECT queue FROM queue_entries WHERE task = ? AND queue <> ?`, taskID, keep)
	if err != nil {
		return 0, err
	}
	sort.Strings(queues) // one lock order for every caller
	removed := 0
	for _, qid := range queues {
		ok, err := db.RemoveQueueEntry(ctx, q, qid, taskID, now)
		if err != nil {
			return 0, err
		}
		if ok {
			removed++
		}
	}
	return removed, nil
}

// RemoveTasksFromAllQueues removes the tasks from every queue at time now
// and returns how many entries were removed; each queue that changed is
// touched and sampled once.
func (db *DB) RemoveTasksFromAllQueues(ctx context.Context, q Querier, taskIDs []string, now jsonx.Time) (int, error) {
	if len(taskIDs) == 0 {
		return 0, nil
	}
	in := Placeholders(len(taskIDs))
	queues, err := IDs(ctx, q, `SELECT DISTINCT queue FROM queue_entries WHERE task IN (`+in+`)`, Args(taskIDs)...)
	if err != nil {
		return 0, err
	}
	sort.Strings(queues)
	total := 0
	for _, qid := range queues {
		if err := db.lockQueue(ctx, q, qid); err != nil {
			if errors.Is(err, ErrNotFound) {
				continue
			}
			return 0, err
		}
		res, err := q.ExecContext(ctx, `DELETE FROM queue_entries WHERE queue = ? AND task IN (`+in+`)`, append([]any{qid}, Args(taskIDs)...)...)
		if err != nil {
			return 0, err
		}
		n, _ := res.RowsAffected()
		if n == 0 {
			continue
		}
		total += int(n)
		if err := db.queueChanged(ctx, q, qid, now); err != nil {
			return 0, err
		}
	}
	return total, nil
}

// ClearQueue removes every entry of queue at time now and returns the
// removed tasks in queue order (only those it removed: an entry handed out
// meanwhile is not among them).
func (db *DB) ClearQueue(ctx context.Context, q Querier, queueID string, now jsonx.Time) ([]string, error) {
	if err := db.lockQueue(ctx, q, queueID); err != nil {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, `DELETE FROM queue_entries WHERE queue = ? RETURNING task, pos, added`, queueID)
	if err != nil {
		return nil, err
	}
	var removed []QueueEntry
	for rows.Next() {
		e := QueueEntry{Queue: queueID}
		if err := rows.Scan(&e.Task, &e.Pos, &e.Added); err != nil {
			rows.Close()
			return nil, err
		}
		removed = append(removed, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(removed) == 0 {
		return nil, err
	}
	sort.Slice(removed, func(i, j int) bool { return entryLess(removed[i], removed[j]) })
	tasks := make([]string, len(removed))
	for i, e := range removed {
		tasks[i] = e.Task
	}
	return tasks, db.queueChanged(ctx, q, queueID, now)
}

// entryLess is the queue order: position, then added time, then task id.
func entryLess(a, b QueueEntry) bool {
	if a.Pos != b.Pos {
		return a.Pos < b.Pos
	}
	if a.Added != b.Added {
		return a.Added < b.Added
	}
	return a.Task < b.Task
}

// PopQueueEntry hands out the entry at the top of queue: it is removed and
// returned, or nil when the queue is empty. With onlyTask set, the entry is
// taken only when that task is at the top (else nil). The entry's row is
// locked before it is removed, skipping entries other transactions are
// handing out, so each entry goes to exactly one caller (also across
// processes) while concurrent callers on PostgreSQL take the next entries
// in parallel. The caller checks that the queue exists. now is the time of
// the hand-out.
func (db *DB) PopQueueEntry(ctx context.Context, q Querier, queueID, onlyTask string, now jsonx.Time) (*QueueEntry, error) {
	e := QueueEntry{Queue: queueID}
	err := q.QueryRowContext(ctx, `SELECT task, added, pos FROM queue_entries WHERE queue = ?
		ORDER BY pos, added, task LIMIT 1`+db.D.ForUpdateSkipLocked(), queueID).Scan(&e.Task, &e.Added, &e.Pos)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if onlyTask != "" && e.Task != onlyTask {
		return nil, nil
	}
	if err := db.queueChanged(ctx, q, queueID, now); err != nil {
		return nil, err
	}
	if _, err := q.ExecContext(ctx, `DELETE FROM queue_entries WHERE queue = ? AND task = ?`, queueID, e.Task); err != nil {
		return nil, err
	}
	return &e, nil
}

// MoveQueueEntry moves task inside queue to the index target(current, n)
// returns (clamped to the queue), and returns the task's new index. A task
// not in the queue is ErrNotQueued.
func (db *DB) MoveQueueEntry(ctx context.Context, q Querier, queueID, taskID string, target func(current, n int) int) (int, error) {
	if err := db.lockQueue(ctx, q, queueID); err != nil {
		return 0, err
	}
	entries, err := db.QueueEntries(ctx, q, queueID, 0)
	if err != nil {
		return 0, err
	}
	cur := -1
	for i, e := range entries {
		if e.Task == taskID {
			cur = i
			break
		}
	}
	if cur < 0 {
		return 0, fmt.Errorf("task %s in queue %s: %w", taskID, queueID, ErrNotQueued)
	}
	// Clamp before comparing: a move past either end of a queue that holds
	// only this task is no move at all.
	to := max(0, min(target(cur, len(entries)), len(entries)-1))
	if to == cur {
		return cur, nil
	}
	moved := entries[cur]
	rest := append(append([]QueueEntry{}, entries[:cur]...), entries[cur+1:]...)
	var pos int64
	switch {
	case to == 0:
		pos = rest[0].Pos - 1
	case to == len(rest):
		pos = rest[len(rest)-1].Pos + 1
	case rest[to].Pos-rest[to-1].Pos > 1:
		pos = rest[to-1].Pos + (rest[to].Pos-rest[to-1].Pos)/2
	default:
		// No room between the neighbours: renumber the queue with gaps,
		// keeping the largest position, so that an append running
		// concurrently (which does not lock the queue) still lands last.
		order := append(append(append([]QueueEntry{}, rest[:to]...), moved), rest[to:]...)
		top := max(entries[len(entries)-1].Pos, moved.Pos)
		for i, e := range order {
			if _, err := q.ExecContext(ctx, `UPDATE queue_entries SET pos = ? WHERE queue = ? AND task = ?`,
				top-int64(len(order)-1-i)*1024, queueID, e.Task); err != nil {
				return 0, err
			}
		}
		return to, nil
	}
	res, err := q.ExecContext(ctx, `UPDATE queue_entries SET pos = ? WHERE queue = ? AND task = ?`, pos, queueID, taskID)
	if err != nil {
		return 0, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		// Handed out while we moved it.
		return 0, fmt.Errorf("task %s in queue %s: %w", taskID, queueID, ErrNotQueued)
	}
	return to, nil
}

// QueueEntries lists a queue's entries in order (limit <= 0 = all).
func (db *DB) QueueEntries(ctx context.Context, q Querier, queueID string, limit int) ([]QueueEntry, error) {
	query := `SELECT queue, task, added, pos FROM queue_entries WHERE queue = ? ORDER BY pos, added, task`
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
		if err := rows.Scan(&e.Queue, &e.Task, &e.Added, &e.Pos); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// QueueEntriesOf lists the first limit entries (<= 0 = all) of each queue,
// keyed by queue id, in one query.
func (db *DB) QueueEntriesOf(ctx context.Context, q Querier, queueIDs []string, limit int) (map[string][]QueueEntry, error) {
	out := map[string][]QueueEntry{}
	if len(queueIDs) == 0 {
		return out, nil
	}
	rows, err := q.QueryContext(ctx, `SELECT queue, task, added, pos FROM queue_entries WHERE queue IN (`+
		Placeholders(len(queueIDs))+`) ORDER BY queue, pos, added, task`, Args(queueIDs)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var e QueueEntry
		if err := rows.Scan(&e.Queue, &e.Task, &e.Added, &e.Pos); err != nil {
			return nil, err
		}
		if limit <= 0 || len(out[e.Queue]) < limit {
			out[e.Queue] = append(out[e.Queue], e)
		}
	}
	return out, rows.Err()
}

// QueueLoad is the size of a queue and the summed time its entries were
// added, for waiting-time metrics.
type QueueLoad struct {
	Entries int
	// AddedSum is the sum of the entries' added times (epoch ms).
	AddedSum int64
}

// QueueLoadOf measures a queue's entries.
func (db *DB) QueueLoadOf(ctx context.Context, q Querier, queueID string) (QueueLoad, error) {
	var l QueueLoad
	err := q.QueryRowContext(ctx, `SELECT COUNT(*), CAST(COALESCE(SUM(added), 0) AS BIGINT) FROM queue_entries WHERE queue = ?`, queueID).
		Scan(&l.Entries, &l.AddedSum)
	return l, err
}

// QueueSizes counts the entries of each queue (queues without entries
// are absent).
func (db *DB) QueueSizes(ctx context.Context, q Querier, queueIDs []string) (map[string]int, error) {
	out := map[string]int{}
	if len(queueIDs) == 0 {
		return out, nil
	}
	rows, err := q.QueryContext(ctx, `SELECT queue, COUNT(*) FROM queue_entries WHERE queue IN (`+
		Placeholders(len(queueIDs))+`) GROUP BY queue`, Args(queueIDs)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, err
		}
		out[id] = n
	}
	return out, rows.Err()
}

// TouchQueue sets a queue's last_update after an entry change and returns
// the queue's company. When another transaction holds the queue's row
// (another change of the same moment), the time is left to it rather than
// waited for, so that hand-outs do not queue up behind each other.
func (db *DB) TouchQueue(ctx context.Context, q Querier, queueID string, at jsonx.Time) (string, error) {
	var doc []byte
	err := q.QueryRowContext(ctx, `SELECT doc FROM queues WHERE id = ?`+db.D.ForUpdateSkipLocked(), queueID).Scan(&doc)
	if errors.Is(err, sql.ErrNoRows) {
		var company string
		err = q.QueryRowContext(ctx, `SELECT company FROM queues WHERE id = ?`, queueID).Scan(&company)
		if errors.Is(err, sql.ErrNoRows) {
			return "", fmt.Errorf("queue %s: %w", queueID, ErrNotFound)
		}
		return company, err
	}
	if err != nil {
		return "", err
	}
	var qu Queue
	if err := decodeDoc(doc, &qu); err != nil {
		return "", fmt.Errorf("decode queue %s: %w", queueID, err)
	}
	if at.After(qu.LastUpdate.Time) {
		qu.LastUpdate = at
		if err := db.Queues().Update(ctx, q, &qu); err != nil {
			return "", err
		}
	}
	return qu.Company, nil
}

// QueuesNamed lists the company's queues with the given name.
func (db *DB) QueuesNamed(ctx context.Context, q Querier, company, name string) ([]*Queue, error) {
	return db.Queues().Select(ctx, q, "company = ? AND name = ?", company, name)
}

// CompaniesWithoutQueues lists the companies that have no queue, by id.
func (db *DB) CompaniesWithoutQueues(ctx context.Context, q Querier) ([]string, error) {
	return IDs(ctx, q, `SELECT id FROM companies c WHERE NOT EXISTS
		(SELECT 1 FROM queues WHERE queues.company = c.id) ORDER BY id`)
}
