package store

import (
	"context"
)

// The names of hyper parameters, their values and the metric/variant
// pairs of tasks, per (company, project), read from the tables that
// migration 0075's triggers keep on every task write (a read of every
// task document took seconds on a large store).

// ParamName is a hyper parameter's section and name.
type ParamName struct{ Section, Name string }

// MetricVariantName is a metric/variant pair with the keys last_metrics
// files it under.
type MetricVariantName struct{ Metric, Variant, MetricHash, VariantHash string }

// nameTableWhere is the condition selecting the rows of s's companies and
// projects in a name table (where an empty project is no project) that
// some task still holds (rows at 0 are left in place).
func nameTableWhere(s DocScan) (string, []any) {
	where, args := nameTableScope(s)
	return "tasks > 0 AND " + where, args
}

// nameTableScope is the condition selecting the rows of s's companies
// and projects in a name table, whatever their count.
func nameTableScope(s DocScan) (string, []any) {
	where := "company IN (" + Placeholders(len(s.Companies)) + ")"
	args := Args(s.Companies)
	switch {
	case s.AllProjects:
	case s.NoProject:
		where += " AND project = ''"
	default:
		where += " AND project IN (" + Placeholders(len(s.Projects)) + ")"
		args = append(args, Args(s.Projects)...)
	}
	return where, args
}

// TaskParamNames lists the distinct hyper parameter names of the tasks s
// selects (its Table, Archived, WithParent, IDs and Member are ignored).
func (db *DB) TaskParamNames(ctx context.Context, s DocScan) ([]ParamName, error) {
	where, args := nameTableWhere(s)
	rows, err := db.Read().QueryContext(ctx, "SELECT DISTINCT section, name FROM task_param_names WHERE "+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ParamName
	for rows.Next() {
		var p ParamName
		if err := rows.Scan(&p.Section, &p.Name); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// TaskParamValues lists the distinct string values of one hyper parameter
// of the tasks s selects.
func (db *DB) TaskParamValues(ctx context.Context, s DocScan, section, name string) ([]string, error) {
	where, args := nameTableWhere(s)
	secCond, secArgs := db.D.TextKeyEq("section", section)
	nameCond, nameArgs := db.D.TextKeyEq("name", name)
	where += " AND " + secCond + " AND " + nameCond
	args = append(append(args, secArgs...), nameArgs...)
	return IDs(ctx, db.Read(), "SELECT DISTINCT value FROM task_param_values WHERE "+where, args...)
}

// TaskMetricVariants lists the distinct metric/variant pairs of the
// last_metrics of the tasks s selects; a pair filed under more than one
// key (only a hand-made document does that) reports the least keys.
func (db *DB) TaskMetricVariants(ctx context.Context, s DocScan) ([]MetricVariantName, error) {
	where, args := nameTableWhere(s)
	from := "task_metric_variants"
	if db.D.DefersNameCounts() {
		// the counts with the deltas not yet folded (task_name_counts.go)
		scope, scopeArgs := nameTableScope(s)
		cols := "company, project, metric_hash, variant_hash, metric, variant"
		from = "(SELECT " + cols + ", sum(tasks) AS tasks FROM (SELECT " + cols + ", tasks FROM task_metric_variants WHERE " + scope +
			" UNION ALL SELECT " + cols + ", tasks FROM task_metric_variant_deltas WHERE " + scope + ") u GROUP BY " + cols + ") c"
		args = append(append(scopeArgs, scopeArgs...), args...)
	}
	rows, err := db.Read().QueryContext(ctx, "SELECT metric, variant, min(metric_hash), min(variant_hash) FROM "+from+" WHERE "+
		where+" GROUP BY metric, variant", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []MetricVariantName
	for rows.Next() {
		var m MetricVariantName
		if err := rows.Scan(&m.Metric, &m.Variant, &m.MetricHash, &m.VariantHash); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}
