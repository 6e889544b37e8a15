package store

import "strings"

// countKeys are the unique keys of the count tables (migrations 0075 and
// 0090), in index order; a "~" marks free text, which PostgreSQL keys by
// its md5 (a B-tree entry cannot hold long text) and SQLite by itself.
var countKeys = map[string][]string{
	"record_facets":        {"entity", "company", "facet", "project", "~value", "archived"},
	"task_param_names":     {"company", "project", "~section", "~name"},
	"task_param_values":    {"company", "~section", "~name", "~value", "project"},
	"task_metric_variants": {"company", "project", "~metric_hash", "~variant_hash", "~metric", "~variant"},
}

// countKey writes the key of table with text columns wrapped by text.
func countKey(table string, text func(col string) string) string {
	cols := countKeys[table]
	if cols == nil {
		panic("store: not a count table: " + table)
	}
	out := make([]string, len(cols))
	for i, c := range cols {
		if name, ok := strings.CutPrefix(c, "~"); ok {
			out[i] = text(name)
		} else {
			out[i] = c
		}
	}
	return "(" + strings.Join(out, ", ") + ")"
}

func (sqliteDialect) CountKey(table string) string {
	return countKey(table, func(col string) string { return col })
}

func (postgresDialect) CountKey(table string) string {
	return countKey(table, func(col string) string { return "md5(" + col + ")" })
}

// LockWrites: SQLite has one writer, which the transaction already is.
func (sqliteDialect) LockWrites(string) string { return "" }

// LockWrites takes the lock that conflicts with every writer of table
// (and with itself) but not with readers.
func (postgresDialect) LockWrites(table string) string {
	return "LOCK TABLE " + table + " IN SHARE ROW EXCLUSIVE MODE"
}
