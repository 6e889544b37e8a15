package eventstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/trove-ml/trove/internal/store"
)

// Sample navigation (get/next_debug_image_sample, get/next_plot_sample)
// moves between single positions of a task's documents; each step is one
// indexed query for the first row in a direction.

// VariantBound is a metric/variant with the lowest iteration to consider.
type VariantBound struct {
	Metric, Variant string
	MinIter         int64
}

func boundsCond(vs []VariantBound) (string, []any) {
	if len(vs) == 0 {
		return "1 = 0", nil
	}
	parts := make([]string, len(vs))
	args := make([]any, 0, 3*len(vs))
	for i, v := range vs {
		parts[i] = "(metric = ? AND variant = ? AND iter >= ?)"
		args = append(args, v.Metric, v.Variant, v.MinIter)
	}
	return "(" + strings.Join(parts, " OR ") + ")", args
}

func (s *Store) firstDoc(ctx context.Context, q store.Querier, task, etype, cond string, args []any, order string) (*DocRow, error) {
	where := "task = ? AND etype = ? AND iter > ?"
	all := append([]any{task, etype, int64(noIter)}, args...)
	if cond != "" {
		where += " AND " + cond
	}
	rows, err := scanDocs(q.QueryContext(ctx, "SELECT "+docCols+", plot, plot_z FROM event_docs WHERE "+where+" ORDER BY "+order+" LIMIT 1", all...))
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	return &rows[0], nil
}

// LatestImage is the debug image of a metric/variant at the highest
// iteration within [minIter, maxIter] (maxIter nil: any), greatest url
// first; nil when there is none.
func (s *Store) LatestImage(ctx context.Context, q store.Querier, task, metric, variant string, minIter int64, maxIter *int64) (*DocRow, error) {
	cond := "metric = ? AND variant = ? AND url IS NOT NULL AND iter >= ?"
	args := []any{metric, variant, minIter}
	if maxIter != nil {
		cond += " AND iter <= ?"
		args = append(args, *maxIter)
	}
	return s.firstDoc(ctx, q, task, "training_debug_image", cond, args, "iter DESC, url DESC")
}

// ImageInIteration is the debug image at iter of the nearest variant
// before (earlier) or after (metric, variant) in name order, among the
// bounded variants; nil when there is none.
func (s *Store) ImageInIteration(ctx context.Context, q store.Querier, task string, vs []VariantBound, iter int64, metric, variant string, earlier bool) (*DocRow, error) {
	bc, args := boundsCond(vs)
	op, dir := ">", "ASC"
	if earlier {
		op, dir = "<", "DESC"
	}
	cond := "url IS NOT NULL AND iter = ? AND (metric " + op + " ? OR (metric = ? AND variant " + op + " ?)) AND " + bc
	args = append([]any{iter, metric, metric, variant}, args...)
	return s.firstDoc(ctx, q, task, "training_debug_image", cond, args, "metric "+dir+", variant "+dir+", url DESC")
}

// ImageInOtherIteration is the debug image of the nearest iteration below
// (earlier: its last variant) or above iter (its first variant), among
// the bounded variants; nil when there is none.
func (s *Store) ImageInOtherIteration(ctx context.Context, q store.Querier, task string, vs []VariantBound, iter int64, earlier bool) (*DocRow, error) {
	bc, args := boundsCond(vs)
	op, dir := ">", "ASC"
	if earlier {
		op, dir = "<", "DESC"
	}
	args = append([]any{iter}, args...)
	return s.firstDoc(ctx, q, task, "training_debug_image", "url IS NOT NULL AND iter "+op+" ? AND "+bc, args,
		"iter "+dir+", metric "+dir+", variant "+dir+", url DESC")
}

// PlotStep says how get/next_plot_sample moves.
type PlotStep struct {
	// Metric restricts the move to one metric ("" = any).
	Metric string
	// Iter is the current iteration; the move goes strictly below it
	// (Earlier) or above it, or, with SameIteration, also to the
	// previous or next metric name than FromMetric within Iter.
	Iter          int64
	Earlier       bool
	SameIteration bool
	FromMetric    string
	// AtOrBelow replaces the move: the highest iteration <= Iter.
	AtOrBelow bool
	// Any takes the highest iteration overall.
	Any bool
}

// PlotPosition finds the (iteration, metric) a plot step lands on.
func (s *Store) PlotPosition(ctx context.Context, q store.Querier, task string, st PlotStep) (int64, string, bool, error) {
	var conds []string
	var args []any
	if st.Metric != "" {
		conds = append(conds, "metric = ?")
		args = append(args, st.Metric)
	}
	op, dir := ">", "ASC"
	if st.Earlier || st.AtOrBelow || st.Any {
		op, dir = "<", "DESC"
	}
	switch {
	case st.Any:
	case st.AtOrBelow:
		conds = append(conds, "iter <= ?")
		args = append(args, st.Iter)
	case st.SameIteration:
		conds = append(conds, "((iter = ? AND metric "+op+" ?) OR iter "+op+" ?)")
		args = append(args, st.Iter, st.FromMetric, st.Iter)
	default:
		conds = append(conds, "iter "+op+" ?")
		args = append(args, st.Iter)
	}
	where := "task = ? AND etype = 'plot' AND iter > ?"
	all := append([]any{task, int64(noIter)}, args...)
	if len(conds) > 0 {
		where += " AND " + strings.Join(conds, " AND ")
	}
	var it int64
	var metric string
	err := q.QueryRowContext(ctx, "SELECT iter, metric FROM event_docs WHERE "+where+" ORDER BY iter "+dir+", metric "+dir+" LIMIT 1", all...).Scan(&it, &metric)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", false, nil
	}
	return it, metric, err == nil, err
}

// MultiTaskPlotQuery selects plots of several tasks at their last
// iterations: the Iters highest iterations per task and metric (or per
// task), in (iter descending, id) order after a position.
type MultiTaskPlotQuery struct {
	Tasks     []string
	Metrics   []MetricFilter
	Iters     int
	PerMetric bool
	After     bool
	AfterIter int64
	AfterID   int64
	Limit     int
}

func (mq *MultiTaskPlotQuery) sql(cols string) (string, []any) {
	in := "task IN (" + store.Placeholders(len(mq.Tasks)) + ")"
	args := store.Args(mq.Tasks)
	mc, margs := metricCond(mq.Metrics)
	filter := in + " AND etype = 'plot' AND iter > ?"
	fargs := append(append([]any{}, args...), int64(noIter))
	if mc != "" {
		filter += " AND " + mc
		fargs = append(fargs, margs...)
	}
	part, key, distinct := "task", "(d.task, d.iter)", "task, iter"
	if mq.PerMetric {
		part, key, distinct = "task, metric", "(d.task, d.metric, d.iter)", "task, metric, iter"
	}
	sel := "SELECT " + distinct + " FROM (SELECT " + distinct + ", ROW_NUMBER() OVER (PARTITION BY " + part + " ORDER BY iter DESC) AS rn FROM (SELECT DISTINCT " +
		distinct + " FROM event_docs WHERE " + filter + ") u) r WHERE rn <= ?"
	all := append(fargs, mq.Iters)
	where := "d.etype = 'plot' AND " + key + " IN (" + sel + ")"
	if mc != "" {
		where += " AND " + strings.ReplaceAll(strings.ReplaceAll(mc, "metric", "d.metric"), "variant", "d.variant")
		all = append(all, margs...)
	}
	if mq.After {
		where += " AND (d.iter < ? OR (d.iter = ? AND d.id > ?))"
		all = append(all, mq.AfterIter, mq.AfterIter, mq.AfterID)
	}
	// A row-value IN, not a join: both backends then look the selected
	// (task, iteration) pairs up through an index instead of pairing every
	// plot with every selected iteration.
	return "SELECT " + cols + " FROM event_docs d WHERE " + where, all
}

// MultiTaskPlots reads a page of the selected plots.
func (s *Store) MultiTaskPlots(ctx context.Context, q store.Querier, mq MultiTaskPlotQuery) ([]DocRow, error) {
	if len(mq.Tasks) == 0 {
		return nil, nil
	}
	cols := "d.id, d.task, d.etype, d.metric, d.variant, d.iter, d.ekey, d.ts, d.url, d.doc, d.plot, d.plot_z"
	query, args := mq.sql(cols)
	return scanDocs(q.QueryContext(ctx, query+" ORDER BY d.iter DESC, d.id ASC LIMIT ?", append(args, mq.Limit)...))
}

// CountMultiTaskPlots counts the selected plots, up to limit.
func (s *Store) CountMultiTaskPlots(ctx context.Context, q store.Querier, mq MultiTaskPlotQuery, limit int) (int, error) {
	if len(mq.Tasks) == 0 {
		return 0, nil
	}
	mq.After = false
	query, args := mq.sql("1")
	var n int
	err := q.QueryRowContext(ctx, "SELECT COUNT(*) FROM ("+query+" LIMIT ?) c", append(args, limit)...).Scan(&n)
	return n, err
}
