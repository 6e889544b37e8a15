package eventstore

import (
	"context"
	"database/sql"
	"strings"

	"github.com/trove-ml/trove/internal/store"
)

// DocQuery selects documents (plots, debug images, vectors) in (iter, id)
// order.
type DocQuery struct {
	Tasks   []string
	EType   string
	Metrics []MetricFilter
	// HasURL keeps only documents with a url (debug images).
	HasURL bool
	// MinIter and MaxIter bound the iteration (inclusive).
	MinIter, MaxIter *int64
	// Iters keeps only these iterations.
	Iters []int64
	// WithoutIter selects only documents sent without iteration (they are
	// left out otherwise).
	WithoutIter bool
	// After continues after the position (AfterIter, AfterID): iterations
	// past AfterIter in the order, or AfterIter with a higher id.
	After            bool
	AfterIter        int64
	AfterID          int64
	Desc             bool
	Limit            int
	SkipPlotContents bool
}

const docCols = "id, task, etype, metric, variant, iter, ekey, ts, url, doc"

func (dq *DocQuery) where() (string, []any) {
	conds := []string{"task IN (" + store.Placeholders(len(dq.Tasks)) + ")"}
	args := store.Args(dq.Tasks)
	if dq.EType != "" {
		conds = append(conds, "etype = ?")
		args = append(args, dq.EType)
	}
	if c, a := metricCond(dq.Metrics); c != "" {
		conds = append(conds, c)
		args = append(args, a...)
	}
	if dq.HasURL {
		conds = append(conds, "url IS NOT NULL")
	}
	if dq.WithoutIter {
		conds = append(conds, "iter = ?")
		args = append(args, int64(noIter))
	} else {
		conds = append(conds, "iter > ?")
		args = append(args, int64(noIter))
	}
	if dq.MinIter != nil {
		conds = append(conds, "iter >= ?")
		args = append(args, *dq.MinIter)
	}
	if dq.MaxIter != nil {
		conds = append(conds, "iter <= ?")
		args = append(args, *dq.MaxIter)
	}
	if len(dq.Iters) > 0 {
		conds = append(conds, "iter IN ("+store.Placeholders(len(dq.Iters))+")")
		args = append(args, store.Args(dq.Iters)...)
	}
	if dq.After {
		op := ">"
		if dq.Desc {
			op = "<"
		}
		conds = append(conds, "(iter "+op+" ? OR (iter = ? AND id > ?))")
		args = append(args, dq.AfterIter, dq.AfterIter, dq.AfterID)
	}
	return strings.Join(conds, " AND "), args
}

// Docs reads documents in (iter, id) order (iterations descending when
// Desc), up to Limit (0 = all).
func (s *Store) Docs(ctx context.Context, q store.Querier, dq DocQuery) ([]DocRow, error) {
	if len(dq.Tasks) == 0 {
		return nil, nil
	}
	where, args := dq.where()
	order := "iter ASC, id ASC"
	if dq.Desc {
		order = "iter DESC, id ASC"
	}
	cols := docCols + ", plot, plot_z"
	if dq.SkipPlotContents {
		cols = docCols + ", NULL, NULL"
	}
	query := "SELECT " + cols + " FROM event_docs WHERE " + where + " ORDER BY " + order
	if dq.Limit > 0 {
		query += " LIMIT ?"
		args = append(args, dq.Limit)
	}
	return scanDocs(q.QueryContext(ctx, query, args...))
}

// CountDocs counts the documents a query selects, up to limit.
func (s *Store) CountDocs(ctx context.Context, q store.Querier, dq DocQuery, limit int) (int, error) {
	if len(dq.Tasks) == 0 {
		return 0, nil
	}
	where, args := dq.where()
	var n int
	err := q.QueryRowContext(ctx, "SELECT COUNT(*) FROM (SELECT 1 FROM event_docs WHERE "+where+" ORDER BY iter LIMIT ?) c", append(args, limit)...).Scan(&n)
	return n, err
}

func scanDocs(rows *sql.Rows, err error) ([]DocRow, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []DocRow
	for rows.Next() {
		var d DocRow
		var doc string
		if err := rows.Scan(&d.ID, &d.Task, &d.EType, &d.Metric, &d.Variant, &d.Iter, &d.Key, &d.TS, &d.URL, &doc, &d.Plot, &d.PlotZ); err != nil {
			return nil, err
		}
		d.Doc = []byte(doc)
		out = append(out, d)
	}
	return out, rows.Err()
}

// LatestDocs reads, per metric and variant of a task's documents of etype,
// the n with the highest iterations, ordered by metric, variant and
// iteration descending.
func (s *Store) LatestDocs(ctx context.Context, q store.Querier, task, etype string, metrics []MetricFilter, n int) ([]DocRow, error) {
	where := "task = ? AND etype = ? AND iter > ?"
	args := []any{task, etype, int64(noIter)}
	if c, a := metricCond(metrics); c != "" {
		where += " AND " + c
		args = append(args, a...)
	}
	args = append(args, n)
	return scanDocs(q.QueryContext(ctx, "SELECT "+docCols+", plot, plot_z FROM (SELECT d.*, ROW_NUMBER() OVER (PARTITION BY metric, variant ORDER BY iter DESC, id DESC) AS rn FROM event_docs d WHERE "+
		where+") r WHERE rn <= ? ORDER BY metric, variant, iter DESC, id DESC", args...))
}

// TaskMetricVariant is one metric/variant with events of a task.
type TaskMetricVariant struct {
	Task, Metric, Variant string
}

// DocMetricVariants lists the metric/variants of the tasks' documents of
// etype ("" = any) with an iteration above minIter, ordered.
func (s *Store) DocMetricVariants(ctx context.Context, q store.Querier, tasks []string, etype string, minIter int64, hasURL bool) ([]TaskMetricVariant, error) {
	if len(tasks) == 0 {
		return nil, nil
	}
	where := "task IN (" + store.Placeholders(len(tasks)) + ") AND iter > ?"
	args := append(store.Args(tasks), minIter)
	if etype != "" {
		where += " AND etype = ?"
		args = append(args, etype)
	}
	if hasURL {
		where += " AND url IS NOT NULL"
	}
	rows, err := q.QueryContext(ctx, "SELECT DISTINCT task, metric, variant FROM event_docs WHERE "+where+" ORDER BY task, metric, variant", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []TaskMetricVariant
	for rows.Next() {
		var m TaskMetricVariant
		if err := rows.Scan(&m.Task, &m.Metric, &m.Variant); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// LogMetricVariants lists the metric/variants of the tasks' log events.
func (s *Store) LogMetricVariants(ctx context.Context, q store.Querier, tasks []string) ([]TaskMetricVariant, error) {
	if len(tasks) == 0 {
		return nil, nil
	}
	rows, err := q.QueryContext(ctx, "SELECT DISTINCT task, metric, variant FROM event_logs WHERE task IN ("+store.Placeholders(len(tasks))+") ORDER BY task, metric, variant", store.Args(tasks)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []TaskMetricVariant
	for rows.Next() {
		var m TaskMetricVariant
		if err := rows.Scan(&m.Task, &m.Metric, &m.Variant); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// DocVariantStat is, for one metric/variant of a task's documents, its
// newest event time and iteration range.
type DocVariantStat struct {
	Metric, Variant  string
	LastTS           int64
	MinIter, MaxIter int64
}

// DocVariantStats summarises a task's documents of etype per metric and
// variant, ordered by metric and variant.
func (s *Store) DocVariantStats(ctx context.Context, q store.Querier, task, etype string, metrics []MetricFilter, hasURL bool) ([]DocVariantStat, error) {
	where := "task = ? AND etype = ? AND iter > ?"
	args := []any{task, etype, int64(noIter)}
	if c, a := metricCond(metrics); c != "" {
		where += " AND " + c
		args = append(args, a...)
	}
	if hasURL {
		where += " AND url IS NOT NULL"
	}
	rows, err := q.QueryContext(ctx, "SELECT metric, variant, MAX(ts), MIN(iter), MAX(iter) FROM event_docs WHERE "+where+" GROUP BY metric, variant ORDER BY metric, variant", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []DocVariantStat
	for rows.Next() {
		var st DocVariantStat
		if err := rows.Scan(&st.Metric, &st.Variant, &st.LastTS, &st.MinIter, &st.MaxIter); err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, rows.Err()
}

// URLIter is the highest iteration at which a URL was reported for a
// metric/variant of a task's debug images.
type URLIter struct {
	Metric, Variant, URL string
	MaxIter              int64
	// Uses is the number of iterations the URL was reported at.
	Uses int64
}

// URLIters lists, per metric, variant and url of a task's debug images,
// the highest iteration and the number of uses.
func (s *Store) URLIters(ctx context.Context, q store.Querier, task string, metrics []MetricFilter) ([]URLIter, error) {
	where := "task = ? AND etype = 'training_debug_image' AND url IS NOT NULL AND iter > ?"
	args := []any{task, int64(noIter)}
	if c, a := metricCond(metrics); c != "" {
		where += " AND " + c
		args = append(args, a...)
	}
	rows, err := q.QueryContext(ctx, "SELECT metric, variant, url, MAX(iter), COUNT(*) FROM event_docs WHERE "+where+" GROUP BY metric, variant, url ORDER BY metric, variant, url", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []URLIter
	for rows.Next() {
		var u URLIter
		if err := rows.Scan(&u.Metric, &u.Variant, &u.URL, &u.MaxIter, &u.Uses); err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// URLIterBelow is the highest iteration below iter at which url was
// reported for the metric/variant of a task's debug images.
func (s *Store) URLIterBelow(ctx context.Context, q store.Querier, task, metric, variant, url string, iter int64) (int64, bool, error) {
	var it int64
	err := q.QueryRowContext(ctx, "SELECT iter FROM event_docs WHERE task = ? AND etype = 'training_debug_image' AND metric = ? AND variant = ? AND url = ? AND iter < ? AND iter > ? ORDER BY iter DESC LIMIT 1",
		task, metric, variant, url, iter, int64(noIter)).Scan(&it)
	if err == sql.ErrNoRows {
		return 0, false, nil
	}
	return it, err == nil, err
}

// DocIterations lists distinct iterations of a task's documents of etype
// in the metrics, strictly below (desc) or above the bound when given.
func (s *Store) DocIterations(ctx context.Context, q store.Querier, task, etype string, metrics []string, hasURL bool, bound *int64, desc bool, limit int) ([]int64, error) {
	if len(metrics) == 0 {
		return nil, nil
	}
	where := "task = ? AND etype = ? AND iter > ? AND metric IN (" + store.Placeholders(len(metrics)) + ")"
	args := append([]any{task, etype, int64(noIter)}, store.Args(metrics)...)
	if hasURL {
		where += " AND url IS NOT NULL"
	}
	order := "ASC"
	if bound != nil {
		op := ">"
		if desc {
			op = "<"
		}
		where += " AND iter " + op + " ?"
		args = append(args, *bound)
	}
	if desc {
		order = "DESC"
	}
	rows, err := q.QueryContext(ctx, "SELECT DISTINCT iter FROM event_docs WHERE "+where+" ORDER BY iter "+order+" LIMIT ?", append(args, limit)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var it int64
		if err := rows.Scan(&it); err != nil {
			return nil, err
		}
		out = append(out, it)
	}
	return out, rows.Err()
}

// DocsOf reads up to limit documents of one iteration and metric of a
// task, ordered by variant.
func (s *Store) DocsOf(ctx context.Context, q store.Querier, task, etype, metric string, iter int64, limit int) ([]DocRow, error) {
	return scanDocs(q.QueryContext(ctx, "SELECT "+docCols+", plot, plot_z FROM event_docs WHERE task = ? AND etype = ? AND metric = ? AND iter = ? ORDER BY variant, id LIMIT ?",
		task, etype, metric, iter, limit))
}
