package store

import (
	"context"
	"strings"
)

// projects.merge moves the active (not archived) tasks and models of a
// project into another. One UPDATE moved them, but the count tables'
// triggers (migrations 0075, 0090) redid every moved record's names and
// facets: about 1 s for 5,000 tasks, holding SQLite's single writer. Here
// the update triggers pause (migration 0097) and the project's count rows
// move in a few statements instead.

// recordFacets are the facets record_facets holds (listed so the reads of
// a project's rows use the table's key).
var recordFacets = []string{"tags", "system_tags", "type", "parent", "user"}

// taskNameTables are the count tables of task names, the view that gives
// each task's rows of one, and their key columns besides company and
// project.
var taskNameTables = []struct{ table, view, cols string }{
	{"task_param_names", "task_param_name_rows", "section, name"},
	{"task_param_values", "task_param_value_rows", "section, name, value"},
	{"task_metric_variants", "task_metric_variant_rows", "metric_hash, variant_hash, metric, variant"},
}

// MoveActiveContents moves the rows of table ("tasks" or "models") of
// companies in project src that are not archived to project dst ("" = no
// project), in the column and the document, and returns how many moved.
// The count tables end as their triggers would have left them.
func (db *DB) MoveActiveContents(ctx context.Context, q Querier, table string, companies []string, src, dst string) (int, error) {
	if err := contentTable(table); err != nil {
		return 0, err
	}
	if lock := db.D.LockWrites(table); lock != "" {
		if _, err := q.ExecContext(ctx, lock); err != nil {
			return 0, err
		}
	}
	if table == "tasks" {
		// the name counts move below: those not yet folded first
		if err := db.FoldNameCountDeltas(ctx, q); err != nil {
			return 0, err
		}
	}
	if _, err := q.ExecContext(ctx, "INSERT INTO upkeep_pauses (entity) VALUES (?)", table); err != nil {
		return 0, err
	}
	n, err := db.moveUnseen(ctx, q, table, companies, src, dst)
	// The pause ends whatever happened: a caller that went on with the
	// transaction after an error must not write unseen.
	if _, endErr := q.ExecContext(ctx, "DELETE FROM upkeep_pauses WHERE entity = ?", table); err == nil {
		err = endErr
	}
	if err != nil {
		return 0, err
	}
	if table == "tasks" && n > 0 {
		return n, db.settleLeftTasks(ctx, q, companies, src, dst)
	}
	return n, nil
}

// moveUnseen moves the rows while the triggers pause, and the count rows
// with them: record_facets' active rows of src, and all of src's task
// names (settleLeftTasks gives back the share of the archived tasks,
// which stay).
func (db *DB) moveUnseen(ctx context.Context, q Querier, table string, companies []string, src, dst string) (int, error) {
	in := Placeholders(len(companies))
	set, setArgs := db.projectSet(dst)
	res, err := q.ExecContext(ctx, "UPDATE "+table+" SET "+set+" WHERE company IN ("+in+") AND project = ? AND "+NotSystemTagged(db.D),
		append(append(setArgs, Args(companies)...), src, ArchivedTag)...)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	if err != nil || n == 0 {
		return 0, err
	}
	where := "entity = ? AND company IN (" + in + ") AND facet IN (" + Placeholders(len(recordFacets)) + ") AND project = ? AND archived = 0"
	args := append(append(append([]any{table}, Args(companies)...), Args(recordFacets)...), src)
	if err := db.shiftCounts(ctx, q, "record_facets", "entity, company, facet, value, archived", "records", where, args, dst); err != nil {
		return 0, err
	}
	if table == "tasks" {
		where := "company IN (" + in + ") AND project = ?"
		args := append(Args(companies), src)
		for _, t := range taskNameTables {
			if err := db.shiftCounts(ctx, q, t.table, "company, "+t.cols, "tasks", where, args, dst); err != nil {
				return 0, err
			}
		}
	}
	return int(n), nil
}

// shiftCounts adds the counts of the rows of a count table that where
// selects (with args) to the same keys in project dst, and sets them to 0.
func (db *DB) shiftCounts(ctx context.Context, q Querier, table, keys, count, where string, args []any, dst string) error {
	_, err := q.ExecContext(ctx, "INSERT INTO "+table+" AS c ("+keys+", project, "+count+") SELECT "+keys+", ?, "+count+
		" FROM "+table+" WHERE "+where+" AND "+count+" <> 0 ON CONFLICT "+db.D.CountKey(table)+
		" DO UPDATE SET "+count+" = c."+count+" + excluded."+count, append([]any{dst}, args...)...)
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, "UPDATE "+table+" SET "+count+" = 0 WHERE "+where+" AND "+count+" <> 0", args...)
	return err
}

// settleLeftTasks moves the names of the tasks still in src (the archived
// ones, whose names moved with the others) back from dst to src, reading
// each of their documents once.
func (db *DB) settleLeftTasks(ctx context.Context, q Querier, companies []string, src, dst string) error {
	for _, t := range taskNameTables {
		_, err := q.ExecContext(ctx, "WITH left_names AS MATERIALIZED (SELECT company, "+t.cols+", count(*) AS n FROM "+t.view+
			" WHERE company IN ("+Placeholders(len(companies))+") AND project = ? GROUP BY company, "+t.cols+")"+
			" INSERT INTO "+t.table+" AS c (company, project, "+t.cols+", tasks) SELECT l.company, p.project, "+prefixCols("l.", t.cols)+", p.sign * l.n"+
			" FROM left_names l, (SELECT ? AS project, -1 AS sign UNION ALL SELECT ?, 1) p WHERE true"+
			" ON CONFLICT "+db.D.CountKey(t.table)+" DO UPDATE SET tasks = c.tasks + excluded.tasks",
			append(append(Args(companies), src), dst, src)...)
		if err != nil {
			return err
		}
	}
	return nil
}

// prefixCols qualifies each of a list of columns ("a, b") with prefix.
func prefixCols(prefix, cols string) string {
	return prefix + strings.ReplaceAll(cols, ", ", ", "+prefix)
}

// projectSet is the SET clause that puts a row in project ("" = none), in
// the column and the document, with its arguments.
func (db *DB) projectSet(project string) (string, []any) {
	path := db.D.JSONPathArg([]string{"project"})
	if project == "" {
		return "project = NULL, doc = " + db.D.JSONRemove("doc"), []any{path}
	}
	return "project = ?, doc = " + db.D.JSONSetText("doc"), []any{project, path, project}
}
