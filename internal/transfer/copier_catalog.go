package transfer

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// colKind is how a column's values are carried between backends.
type colKind int

const (
	kindText colKind = iota
	kindInt
	kindFloat
	kindBool
	kindBytes
	kindJSON
)

// kindOf maps a declared column type of either backend to its kind.
func kindOf(decl string) colKind {
	t := strings.ToUpper(decl)
	switch {
	case strings.Contains(t, "INT"):
		return kindInt
	case strings.Contains(t, "REAL"), strings.Contains(t, "DOUBLE"), strings.Contains(t, "FLOAT"):
		return kindFloat
	case strings.Contains(t, "BOOL"):
		return kindBool
	case strings.Contains(t, "BLOB"), strings.Contains(t, "BYTEA"):
		return kindBytes
	case strings.Contains(t, "JSON"):
		return kindJSON
	}
	return kindText
}

// catalogColumn is one column as the database itself describes it.
type catalogColumn struct {
	name string
	kind colKind
	// identity is set for PostgreSQL identity columns, whose sequence
	// must follow the copied ids.
	identity bool
}

// catalogTable is one table as the database describes it.
type catalogTable struct {
	name    string
	columns []catalogColumn
	// refs are the tables its foreign keys point at.
	refs []string
	// noRowID marks SQLite WITHOUT ROWID tables.
	noRowID bool
}

// catalogDialect reads the live schema; both dialects implement it in
// this file so the copy never relies on a hand-kept table list.
type catalogDialect interface {
	tableNames(ctx context.Context, q store.Querier) (map[string]bool, error)
	describe(ctx context.Context, q store.Querier, table string) (catalogTable, error)
	// copyOrder is the ORDER BY of a full read of t in insertion order
	// ("" = none needed).
	copyOrder(t catalogTable) string
	// generated reports columns the target fills itself on insert.
	generated(col string) bool
	// secondaryIndexes lists the indexes of table that no constraint
	// owns, with the statement that creates each.
	secondaryIndexes(ctx context.Context, q store.Querier, table string) ([]indexDef, error)
}

// copyBackend is what a copy needs of one backend: reading its live
// schema and writing whole tables into it.
type copyBackend interface {
	catalogDialect
	bulkDialect
}

// sqliteCopy and postgresCopy are the copy's SQL of each backend.
type (
	sqliteCopy   struct{}
	postgresCopy struct{}
)

// backendOf picks the copy's SQL for a store's dialect.
func backendOf(d store.Dialect) copyBackend {
	if d.Name() == "postgres" {
		return postgresCopy{}
	}
	return sqliteCopy{}
}

// indexDef is one secondary index and its CREATE INDEX statement.
type indexDef struct {
	name, create string
}

func scanIndexes(ctx context.Context, q store.Querier, query string, args ...any) ([]indexDef, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []indexDef
	for rows.Next() {
		var d indexDef
		if err := rows.Scan(&d.name, &d.create); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// SQLite keeps the indexes of PRIMARY KEY and UNIQUE constraints with no
// statement; those stay.
func (sqliteCopy) secondaryIndexes(ctx context.Context, q store.Querier, table string) ([]indexDef, error) {
	return scanIndexes(ctx, q, `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name`, table)
}

func (postgresCopy) secondaryIndexes(ctx context.Context, q store.Querier, table string) ([]indexDef, error) {
	return scanIndexes(ctx, q, `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ?
		AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE conrelid = ?::regclass) ORDER BY indexname`, table, table)
}

func (sqliteCopy) tableNames(ctx context.Context, q store.Querier) (map[string]bool, error) {
	return scanNames(ctx, q, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
}

func (sqliteCopy) describe(ctx context.Context, q store.Querier, table string) (catalogTable, error) {
	t := catalogTable{name: table}
	var ddl string
	if err := q.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`, table).Scan(&ddl); err != nil {
		return t, fmt.Errorf("describe %s: %w", table, err)
	}
	t.noRowID = strings.Contains(strings.ToUpper(ddl), "WITHOUT ROWID")
	rows, err := q.QueryContext(ctx, `SELECT name, type FROM pragma_table_info(?) ORDER BY cid`, table)
	if err != nil {
		return t, fmt.Errorf("describe %s: %w", table, err)
	}
	defer rows.Close()
	for rows.Next() {
		var name, typ string
		if err := rows.Scan(&name, &typ); err != nil {
			return t, err
		}
		t.columns = append(t.columns, catalogColumn{name: name, kind: kindOf(typ)})
	}
	if err := rows.Err(); err != nil {
		return t, err
	}
	refs, err := scanNames(ctx, q, `SELECT "table" FROM pragma_foreign_key_list(?)`, table)
	t.refs = sortedKeys(refs)
	return t, err
}

func (sqliteCopy) copyOrder(t catalogTable) string {
	if t.noRowID {
		return ""
	}
	return "rowid"
}

func (sqliteCopy) generated(string) bool { return false }

func (postgresCopy) tableNames(ctx context.Context, q store.Querier) (map[string]bool, error) {
	return scanNames(ctx, q, `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`)
}

func (postgresCopy) describe(ctx context.Context, q store.Querier, table string) (catalogTable, error) {
	t := catalogTable{name: table}
	rows, err := q.QueryContext(ctx, `SELECT column_name, data_type, is_identity FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position`, table)
	if err != nil {
		return t, fmt.Errorf("describe %s: %w", table, err)
	}
	defer rows.Close()
	for rows.Next() {
		var name, typ, ident string
		if err := rows.Scan(&name, &typ, &ident); err != nil {
			return t, err
		}
		t.columns = append(t.columns, catalogColumn{name: name, kind: kindOf(typ), identity: ident == "YES"})
	}
	if err := rows.Err(); err != nil {
		return t, err
	}
	refs, err := scanNames(ctx, q, `SELECT confrelid::regclass::text FROM pg_constraint WHERE contype = 'f' AND conrelid = ?::regclass`, table)
	t.refs = sortedKeys(refs)
	return t, err
}

// copyOrder reads PostgreSQL document tables by seq, the insertion order
// their listings fall back to.
func (postgresCopy) copyOrder(t catalogTable) string {
	for _, c := range t.columns {
		if c.name == "seq" {
			return "seq"
		}
	}
	return ""
}

// generated: seq is refilled from trove_seq in read order, which keeps
// the relative order that listings use.
// generated: seq numbers rows; packed_through starts over in the target,
// which packs the copied points itself.
func (postgresCopy) generated(col string) bool { return col == "seq" || col == "packed_through" }

func scanNames(ctx context.Context, q store.Querier, query string, args ...any) (map[string]bool, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out[n] = true
	}
	return out, rows.Err()
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// derivedTables are tables a copy leaves out, with the reason: the target
// rebuilds them itself. Every other table of either schema is copied.
var derivedTables = map[string]string{
	"schema_migrations":          "written by the target's own migrations",
	"task_input_models":          "kept by triggers on tasks (SQLite only)",
	"task_param_names":           "kept by triggers on tasks",
	"task_param_values":          "kept by triggers on tasks",
	"task_metric_variants":       "kept by triggers on tasks",
	"task_metric_variant_deltas": "folded into task_metric_variants, which the target rebuilds (PostgreSQL only)",
	"record_facets":              "kept by triggers on tasks and models",
	"event_scalar_blocks":        "packed from event_scalars by the target's packer (PostgreSQL only)",
	"event_scalars_staged":       "copied as part of event_scalars, straight into it (SQLite only)",
}

// copyFrom is what a copy reads as table: the table itself, but for the
// scalar points of a store that packs or stages them, all of them
// together.
func copyFrom(d store.Dialect, table string) string {
	if table == "event_scalars" {
		return eventstore.ScalarPointsFrom(d)
	}
	return quoteIdent(table)
}

// orderByRefs sorts tables so that every table comes after the tables its
// foreign keys point at, by name otherwise.
func orderByRefs(tables []catalogTable) ([]catalogTable, error) {
	sort.Slice(tables, func(i, j int) bool { return tables[i].name < tables[j].name })
	done := map[string]bool{}
	var out []catalogTable
	for len(out) < len(tables) {
		progressed := false
		for _, t := range tables {
			if done[t.name] {
				continue
			}
			ready := true
			for _, r := range t.refs {
				if r != t.name && !done[r] {
					ready = false
				}
			}
			if ready {
				done[t.name] = true
				out = append(out, t)
				progressed = true
			}
		}
		if !progressed {
			return nil, fmt.Errorf("copy: foreign keys form a cycle among the remaining tables")
		}
	}
	return out, nil
}

// quoteIdent quotes a catalog name for SQL text.
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}
