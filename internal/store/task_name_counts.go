package store

import (
	"context"
	"fmt"
	"strings"
)

// MetricNameDelta changes by Tasks the count of a project's tasks whose
// last_metrics hold a metric/variant name (the task_metric_variants row
// the tasks' metrics trigger keeps).
type MetricNameDelta struct {
	Company, Project string
	MetricVariantName
	Tasks int
}

// WriteTasksCountingNames writes task rows (WriteEncodedVersions) whose
// metric-name changes the caller works out: deltas gives what the tasks'
// metrics trigger would add to the count rows for these writes. The
// trigger is paused for these writes (Dialect.TaskMetricsPause, migration
// 0106 on both backends).
// On SQLite it parsed the old and new documents of every such task
// several times, most of a first batch's write; the deltas are added to
// the count rows at once. On PostgreSQL the count rows of a project are
// shared by all its tasks, and a transaction adding to them made every
// other wait for its commit; the deltas are appended to
// task_metric_variant_deltas, which FoldNameCountDeltas folds into them.
func (db *DB) WriteTasksCountingNames(ctx context.Context, q Querier, recs []*EncodedRecord, deltas func() []MetricNameDelta) ([]string, error) {
	if len(recs) == 0 {
		return nil, nil
	}
	off, on := db.D.TaskMetricsPause()
	if _, err := q.ExecContext(ctx, off); err != nil {
		return nil, err
	}
	versions, err := db.Tasks().WriteEncodedVersions(ctx, q, recs)
	// the pause ends whatever happened: the transaction may go on
	if _, endErr := q.ExecContext(ctx, on); err == nil {
		err = endErr
	}
	if err != nil {
		return nil, err
	}
	if db.D.DefersNameCounts() {
		return versions, db.appendNameCountDeltas(ctx, q, deltas())
	}
	return versions, db.addMetricNameCounts(ctx, q, deltas())
}

// addMetricNameCounts applies deltas as the SQLite trigger does, one by
// one: a row missing for a decrease starts at 0. Deltas that only add to
// distinct rows (a first batch names tens of metrics) go in multi-row
// statements instead.
func (db *DB) addMetricNameCounts(ctx context.Context, q Querier, deltas []MetricNameDelta) error {
	if onlyNewCounts(deltas) {
		err := InsertRows(ctx, q, db.D, "INSERT INTO task_metric_variants (company, project, metric_hash, variant_hash, metric, variant, tasks)",
			"(?, ?, ?, ?, ?, ?, ?)", 7, " ON CONFLICT "+db.D.CountKey("task_metric_variants")+" DO UPDATE SET tasks = task_metric_variants.tasks + excluded.tasks",
			len(deltas), func(args []any, i int) []any {
				d := &deltas[i]
				return append(args, d.Company, d.Project, d.MetricHash, d.VariantHash, d.Metric, d.Variant, d.Tasks)
			})
		if err != nil {
			return fmt.Errorf("count metric names: %w", err)
		}
		return nil
	}
	stmt := "INSERT INTO task_metric_variants (company, project, metric_hash, variant_hash, metric, variant, tasks) VALUES (?, ?, ?, ?, ?, ?, ?) " +
		"ON CONFLICT " + db.D.CountKey("task_metric_variants") + " DO UPDATE SET tasks = task_metric_variants.tasks + ?"
	for _, d := range deltas {
		if d.Tasks == 0 {
			continue
		}
		_, err := q.ExecContext(ctx, stmt, d.Company, d.Project, d.MetricHash, d.VariantHash, d.Metric, d.Variant, max(d.Tasks, 0), d.Tasks)
		if err != nil {
			return fmt.Errorf("count metric names: %w", err)
		}
	}
	return nil
}

// onlyNewCounts reports deltas that each add to a different count row:
// applied in one statement, they give what applying them in turn gives.
func onlyNewCounts(deltas []MetricNameDelta) bool {
	type countKey struct{ company, project, metric, variant string }
	seen := make(map[countKey]bool, len(deltas))
	for _, d := range deltas {
		k := countKey{d.Company, d.Project, d.MetricHash, d.VariantHash}
		if d.Tasks <= 0 || seen[k] {
			return false
		}
		seen[k] = true
	}
	return true
}

// deltaRowsPerInsert bounds the rows of one insert of deltas (7
// placeholders each).
const deltaRowsPerInsert = 512

// appendNameCountDeltas appends deltas to task_metric_variant_deltas.
func (db *DB) appendNameCountDeltas(ctx context.Context, q Querier, deltas []MetricNameDelta) error {
	for len(deltas) > 0 {
		n := min(len(deltas), deltaRowsPerInsert)
		rows := strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?, ?, ?), ", n), ", ")
		args := make([]any, 0, 7*n)
		for _, d := range deltas[:n] {
			args = append(args, d.Company, d.Project, d.MetricHash, d.VariantHash, d.Metric, d.Variant, d.Tasks)
		}
		if _, err := q.ExecContext(ctx, "INSERT INTO task_metric_variant_deltas (company, project, metric_hash, variant_hash, metric, variant, tasks) VALUES "+rows, args...); err != nil {
			return fmt.Errorf("count metric names: %w", err)
		}
		deltas = deltas[n:]
	}
	return nil
}

// FoldNameCountDeltas moves the appended deltas into the count rows, as
// the statement trigger adds its own (a missing row starts at the sum),
// in q's transaction. Folders on several nodes at once each take rows
// the others do not.
func (db *DB) FoldNameCountDeltas(ctx context.Context, q Querier) error {
	if !db.D.DefersNameCounts() {
		return nil
	}
	_, err := q.ExecContext(ctx, `WITH d AS (DELETE FROM task_metric_variant_deltas
			RETURNING company, project, metric_hash, variant_hash, metric, variant, tasks)
		INSERT INTO task_metric_variants AS t (company, project, metric_hash, variant_hash, metric, variant, tasks)
		SELECT company, project, metric_hash, variant_hash, metric, variant, sum(tasks) FROM d
		GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(tasks) <> 0 ORDER BY 1, 2, 3, 4, 5, 6
		ON CONFLICT `+db.D.CountKey("task_metric_variants")+` DO UPDATE SET tasks = t.tasks + excluded.tasks`)
	if err != nil {
		return fmt.Errorf("fold metric name counts: %w", err)
	}
	return nil
}
