package store

import (
	"context"
	"fmt"
)

// MetricNameDelta changes by Tasks the count of a project's tasks whose
// last_metrics hold a metric/variant name (the task_metric_variants row
// the metrics trigger of migrations 0075/0097 keeps).
type MetricNameDelta struct {
	Company, Project string
	MetricVariantName
	Tasks int
}

// WriteTasksCountingNames writes task rows (WriteEncodedVersions) whose
// metric-name changes the caller works out: deltas gives what the tasks'
// metrics trigger would add to the count rows for these writes.
// Where the dialect lets the writer count (SQLite, migration 0106: the
// trigger parses both documents of every such task several times), the
// trigger is paused for these writes and the deltas applied instead;
// elsewhere the trigger counts and deltas is not called.
func (db *DB) WriteTasksCountingNames(ctx context.Context, q Querier, recs []*EncodedRecord, deltas func() []MetricNameDelta) ([]string, error) {
	if !db.D.WriterCountsMetricNames() {
		return db.Tasks().WriteEncodedVersions(ctx, q, recs)
	}
	if _, err := q.ExecContext(ctx, "INSERT INTO upkeep_pauses (entity) VALUES ('task_metrics')"); err != nil {
		return nil, err
	}
	versions, err := db.Tasks().WriteEncodedVersions(ctx, q, recs)
	// the pause ends whatever happened: the transaction may go on
	if _, endErr := q.ExecContext(ctx, "DELETE FROM upkeep_pauses WHERE entity = 'task_metrics'"); err == nil {
		err = endErr
	}
	if err != nil {
		return nil, err
	}
	return versions, db.addMetricNameCounts(ctx, q, deltas())
}

// addMetricNameCounts applies deltas as the trigger does: a row missing
// for a decrease starts at 0.
func (db *DB) addMetricNameCounts(ctx context.Context, q Querier, deltas []MetricNameDelta) error {
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
