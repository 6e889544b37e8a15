package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
)

// EventStore is the SQL of the event tables (migration 0040): scalar
// series, points and rollups, documents (plots, debug images, vectors),
// logs and navigation states. Events have no company column; callers
// reach them through a task or model they have checked.
type EventStore struct{ db *DB }

// Events returns the event tables.
func (db *DB) Events() *EventStore { return &EventStore{db: db} }

// Series is one (task or model, metric, variant) of scalar events.
type Series struct {
	ID              int64
	Task            string
	Metric, Variant string
	ModelEvent      bool
	// Worker is the first worker that reported; points of that worker
	// store no worker of their own.
	Worker string
	// MaxIter is the highest stored iteration.
	MaxIter int64
	// LastWTS is the newest write time, epoch ms.
	LastWTS int64
}

const seriesCols = "id, task, metric, variant, model_event, worker, max_iter, last_wts"

func scanSeries(sc interface{ Scan(...any) error }) (Series, error) {
	var s Series
	var me int64
	err := sc.Scan(&s.ID, &s.Task, &s.Metric, &s.Variant, &me, &s.Worker, &s.MaxIter, &s.LastWTS)
	s.ModelEvent = me != 0
	return s, err
}

// FindSeries loads the series of (task, metric, variant).
func (s *EventStore) FindSeries(ctx context.Context, q Querier, task, metric, variant string) (*Series, error) {
	row := q.QueryRowContext(ctx, "SELECT "+seriesCols+" FROM event_series WHERE task = ? AND metric = ? AND variant = ?", task, metric, variant)
	sr, err := scanSeries(row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("series %s/%s/%s: %w", task, metric, variant, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	return &sr, nil
}

// CreateSeries inserts a series and sets its ID.
func (s *EventStore) CreateSeries(ctx context.Context, q Querier, sr *Series) error {
	me := 0
	if sr.ModelEvent {
		me = 1
	}
	return q.QueryRowContext(ctx, "INSERT INTO event_series (task, metric, variant, model_event, worker, max_iter, last_wts) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
		sr.Task, sr.Metric, sr.Variant, me, sr.Worker, sr.MaxIter, sr.LastWTS).Scan(&sr.ID)
}

// TouchSeries records a series' highest iteration and newest write time.
func (s *EventStore) TouchSeries(ctx context.Context, q Querier, id, maxIter, lastWTS int64) error {
	_, err := q.ExecContext(ctx, "UPDATE event_series SET max_iter = ?, last_wts = ? WHERE id = ?", maxIter, lastWTS, id)
	return err
}

// TaskSeries lists the series of tasks (or models), ordered by task,
// metric and variant.
func (s *EventStore) TaskSeries(ctx context.Context, q Querier, tasks ...string) ([]Series, error) {
	if len(tasks) == 0 {
		return nil, nil
	}
	rows, err := q.QueryContext(ctx, "SELECT "+seriesCols+" FROM event_series WHERE task IN ("+Placeholders(len(tasks))+") ORDER BY task, metric, variant", Args(tasks)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Series
	for rows.Next() {
		sr, err := scanSeries(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, sr)
	}
	return out, rows.Err()
}

// chunkSizes are the row counts of multi-row statements: a few fixed
// shapes, so each is prepared once and kept in the statement cache.
var chunkSizes = []int{128, 32, 8, 1}

var multiSQL sync.Map // head + size -> statement text

// multiRowSQL builds "head VALUES (?, ...), ... tail" for size rows of
// cols, in the dialect's placeholders (rebinding hundreds of placeholders
// per statement would cost as much as encoding the rows).
func multiRowSQL(d Dialect, head string, cols int, tail string, size int) string {
	key := fmt.Sprintf("%s\x00%s\x00%d\x00%s", d.Name(), head, size, tail)
	if v, ok := multiSQL.Load(key); ok {
		return v.(string)
	}
	row := "(" + Placeholders(cols) + ")"
	var b strings.Builder
	b.WriteString(head)
	b.WriteString(" VALUES ")
	for i := 0; i < size; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(row)
	}
	b.WriteString(tail)
	sqlText := d.Rebind(b.String())
	multiSQL.Store(key, sqlText)
	return sqlText
}

// insertRows writes n rows with multi-row statements; add appends the
// arguments of row i.
func (s *EventStore) insertRows(ctx context.Context, q Querier, head string, cols int, tail string, n int, add func(args []any, i int) []any) error {
	i := 0
	args := make([]any, 0, chunkSizes[0]*cols)
	for _, size := range chunkSizes {
		for n-i >= size {
			args = args[:0]
			for j := 0; j < size; j++ {
				args = add(args, i+j)
			}
			if _, err := q.ExecContext(ctx, multiRowSQL(s.db.D, head, cols, tail, size), args...); err != nil {
				return err
			}
			i += size
		}
	}
	return nil
}
