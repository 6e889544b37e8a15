package eventstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/trove-ml/trove/internal/store"
)

// Store is the SQL of the event tables (migration 0040): scalar series,
// points and rollups, documents (plots, debug images, vectors), logs and
// navigation states. Events have no company column; callers reach them
// through a task or model they have checked.
type Store struct {
	db *store.DB
	// d is the event SQL of db's backend: sqliteEvents or postgresEvents.
	d any
	// series is db's series cache (SQLite only, series_cache.go).
	series *seriesCache
}

// sqliteEvents and postgresEvents carry the event SQL that differs by
// backend (dialect_*.go): staged points on SQLite, packed blocks and
// typed column lists on PostgreSQL.
type (
	sqliteEvents   struct{}
	postgresEvents struct{}
)

// What each backend does differently, checked when compiling: a method
// missing would silently turn staging or packing off.
var (
	_ stagedDialect  = sqliteEvents{}
	_ packedDialect  = postgresEvents{}
	_ columnsDialect = postgresEvents{}
)

// eventsSQL is the event SQL of dialect d's backend.
func eventsSQL(d store.Dialect) any {
	if d.Name() == "postgres" {
		return postgresEvents{}
	}
	return sqliteEvents{}
}

// seriesCacheKey keeps the series cache on its database (store.DB.Shared).
type seriesCacheKey struct{}

// Of returns the event tables of db.
func Of(db *store.DB) *Store {
	s := &Store{db: db, d: eventsSQL(db.D)}
	if !db.IsPostgres() {
		s.series = db.Shared(seriesCacheKey{}, func() any { return newSeriesCache() }).(*seriesCache)
	}
	return s
}

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
	// RolledThrough: the points up to it are in the rollups (see
	// events.Roller).
	RolledThrough int64
	// TS0 is the base time (epoch ms) the series' points keep their event
	// time as an offset from (migration 0095); set at creation.
	TS0 int64
}

const seriesCols = "id, task, metric, variant, model_event, worker, max_iter, last_wts, rolled_through, ts0"

func scanSeries(sc interface{ Scan(...any) error }) (Series, error) {
	var s Series
	var me int64
	err := sc.Scan(&s.ID, &s.Task, &s.Metric, &s.Variant, &me, &s.Worker, &s.MaxIter, &s.LastWTS, &s.RolledThrough, &s.TS0)
	s.ModelEvent = me != 0
	return s, err
}

// SeriesOf loads the series of a task (or model) in the given metrics,
// keyed by metric and variant, locking them against the rollup job on
// PostgreSQL.
//
// Inside a transaction on SQLite the series cache answers what it holds
// (series_cache.go); the rows read are cached once the transaction
// commits. The series returned are the caller's own copies.
func (s *Store) SeriesOf(ctx context.Context, q store.Querier, task string, metrics []string) (map[[2]string]*Series, error) {
	out := map[[2]string]*Series{}
	if len(metrics) == 0 {
		return out, nil
	}
	cache := s.series.usable(q)
	var gen uint64
	if cache != nil {
		if metrics, gen = cache.lookup(task, metrics, out); len(metrics) == 0 {
			return out, nil
		}
	}
	rows, err := q.QueryContext(ctx, "SELECT "+seriesCols+" FROM event_series WHERE task = ? AND metric IN ("+store.Placeholders(len(metrics))+")"+s.db.D.ForUpdate(),
		append([]any{task}, store.Args(metrics)...)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var found []Series
	for rows.Next() {
		sr, err := scanSeries(rows)
		if err != nil {
			return nil, err
		}
		out[[2]string{sr.Metric, sr.Variant}] = &sr
		if cache != nil {
			found = append(found, sr)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if cache != nil {
		store.AfterCommit(q, func() { cache.put(gen, task, metrics, found) })
	}
	return out, nil
}

// CreateSeries inserts a series and sets its ID.
func (s *Store) CreateSeries(ctx context.Context, q store.Querier, sr *Series) error {
	me := 0
	if sr.ModelEvent {
		me = 1
	}
	s.series.changed(q, nil, []string{sr.Task})
	return q.QueryRowContext(ctx, "INSERT INTO event_series (task, metric, variant, model_event, worker, max_iter, last_wts, rolled_through, ts0) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
		sr.Task, sr.Metric, sr.Variant, me, sr.Worker, sr.MaxIter, sr.LastWTS, sr.RolledThrough, sr.TS0).Scan(&sr.ID)
}

// LockSeries loads a series by id, locked on PostgreSQL.
func (s *Store) LockSeries(ctx context.Context, q store.Querier, id int64) (*Series, error) {
	sr, err := scanSeries(q.QueryRowContext(ctx, "SELECT "+seriesCols+" FROM event_series WHERE id = ?"+s.db.D.ForUpdate(), id))
	if err != nil {
		return nil, store.NoRow(err, fmt.Sprintf("series %d", id))
	}
	return &sr, nil
}

// SeriesBehind lists up to limit series with points not yet in their
// rollups whose highest iteration is at least lag past their mark or
// which were last written before idleSince (epoch ms).
func (s *Store) SeriesBehind(ctx context.Context, q store.Querier, lag, idleSince int64, limit int) ([]int64, error) {
	return seriesIDs(q.QueryContext(ctx, "SELECT id FROM event_series WHERE max_iter > rolled_through AND (max_iter - rolled_through >= ? OR last_wts < ?) LIMIT ?", lag, idleSince, limit))
}

// seriesIDs scans a query of series ids.
func seriesIDs(rows *sql.Rows, err error) ([]int64, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// SetRolledThrough records that a series' points up to through are in
// its rollups.
func (s *Store) SetRolledThrough(ctx context.Context, q store.Querier, id, through int64) error {
	s.series.changed(q, []int64{id}, nil)
	_, err := q.ExecContext(ctx, "UPDATE event_series SET rolled_through = ? WHERE id = ?", through, id)
	return err
}

// IterValues reads up to limit (iteration, value) pairs of a series after
// iteration after, in order.
func (s *Store) IterValues(ctx context.Context, q store.Querier, series, after int64, limit int) ([]int64, []float64, error) {
	src, args := s.unpackedFrom("= ?", []any{series}, after+1, lastIter, limit, false)
	rows, err := q.QueryContext(ctx, "SELECT iter, value FROM "+src+" p WHERE series = ? AND iter > ? ORDER BY iter LIMIT ?", append(args, series, after, limit)...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var its []int64
	var vals []float64
	for rows.Next() {
		var it int64
		var v float64
		if err := rows.Scan(&it, &v); err != nil {
			return nil, nil, err
		}
		its, vals = append(its, it), append(vals, v)
	}
	return its, vals, rows.Err()
}

// TouchSeries records a series' highest iteration, rollup mark and
// newest write time.
func (s *Store) TouchSeries(ctx context.Context, q store.Querier, id, maxIter, rolledThrough, lastWTS int64) error {
	s.series.changed(q, []int64{id}, nil)
	_, err := q.ExecContext(ctx, "UPDATE event_series SET max_iter = ?, rolled_through = ?, last_wts = ? WHERE id = ?", maxIter, rolledThrough, lastWTS, id)
	return err
}

// TaskSeries lists the series of tasks (or models), ordered by task,
// metric and variant.
func (s *Store) TaskSeries(ctx context.Context, q store.Querier, tasks ...string) ([]Series, error) {
	if len(tasks) == 0 {
		return nil, nil
	}
	rows, err := q.QueryContext(ctx, "SELECT "+seriesCols+" FROM event_series WHERE task IN ("+store.Placeholders(len(tasks))+") ORDER BY task, metric, variant", store.Args(tasks)...)
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

// chunkSizes are the store's multi-row statement sizes.
var chunkSizes = store.MultiRowChunks

// insertRows writes n rows with multi-row statements; add appends the
// arguments of row i.
func (s *Store) insertRows(ctx context.Context, q store.Querier, head string, cols int, tail string, n int, add func(args []any, i int) []any) error {
	return s.multiRows(ctx, q, head, "("+store.Placeholders(cols)+")", cols, tail, n, add)
}

// multiRows is insertRows with the text of one row given (e.g. with
// casts, where PostgreSQL cannot infer a VALUES column's type).
func (s *Store) multiRows(ctx context.Context, q store.Querier, head, row string, cols int, tail string, n int, add func(args []any, i int) []any) error {
	return store.InsertRows(ctx, q, s.db.D, head, row, cols, tail, n, add)
}
