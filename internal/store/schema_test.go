package store_test

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// dialectOnly lists the schema objects one backend has on purpose, with
// the reason. Everything else must be the same on both.
var dialectOnly = map[string][]string{
	// Insertion order of the document tables: SQLite has rowid.
	"postgres": {"column:projects.seq", "column:tasks.seq", "column:models.seq", "column:queues.seq", "column:users.seq",
		// Input models are found by a GIN index over the task documents...
		"index:tasks_input_models",
		// Keys of free text are md5 on PostgreSQL (a B-tree entry cannot hold
		// long text), the text itself on SQLite (migration 0075).
		"index:task_param_names_key_md5", "index:task_param_values_key_md5", "index:task_metric_variants_key_md5",
		"index:record_facets_key_md5",
		// Rolled-up scalar points packed into blocks: a row per point costs
		// PostgreSQL three times its data (migration 0105).
		"table:event_scalar_blocks", "column:event_series.packed_through",
		// Metric-name counts appended by concurrent writers and folded
		// later; SQLite's one writer adds them at once (migration 0106).
		"table:task_metric_variant_deltas",
		// Other processes hear of logouts through LISTEN/NOTIFY (migration
		// 0085); a SQLite store has one process.
		"trigger:revoked_sessions_notify"},
	// ... which SQLite cannot build: triggers keep a side table instead.
	"sqlite": {"table:task_input_models",
		"trigger:tasks_input_models_insert", "trigger:tasks_input_models_update", "trigger:tasks_input_models_delete",
		"index:task_param_names_key", "index:task_param_values_key", "index:task_metric_variants_key",
		"index:record_facets_key",
		// Points of small batches staged apart: its one writer would otherwise
		// change a page per long series and batch (migration 0108).
		"table:event_scalars_staged"},
}

// fact is one statement about a schema; subjects name what it is about
// (a table, a column, an index) so dialectOnly can excuse it.
type fact struct {
	text     string
	subjects []string
}

// typeFamily maps the declared column types of both dialects to one
// family each. An unknown type fails the test: add it here knowingly.
var typeFamily = map[string]string{
	"text":             "text",
	"jsonb":            "text", // documents: JSONB on PostgreSQL, text on SQLite
	"integer":          "integer",
	"bigint":           "integer",
	"smallint":         "integer",
	"real":             "real",
	"double precision": "real",
	"boolean":          "boolean",
	"blob":             "bytes",
	"bytea":            "bytes",
	"array":            "array", // PostgreSQL only (event_scalar_blocks)
}

func TestMigrationFoldersGiveTheSameSchema(t *testing.T) {
	schemas := map[string]map[string]fact{}
	for _, b := range storetest.Backends() {
		db := storetest.Open(t, b)
		facts, err := readSchema(context.Background(), db)
		if err != nil {
			t.Fatalf("%s: read schema: %v", b, err)
		}
		checkDialectOnlyExist(t, b, facts)
		checkTableColumns(t, b, db, facts)
		schemas[b] = facts
	}
	pg, ok := schemas["postgres"]
	if !ok {
		t.Log("TROVE_TEST_POSTGRES not set: the SQLite schema was checked alone")
		return
	}
	lite := schemas["sqlite"]
	for _, d := range []struct {
		in, notIn map[string]fact
		backend   string
	}{{lite, pg, "sqlite"}, {pg, lite, "postgres"}} {
		var extra []string
		for k, f := range d.in {
			if _, ok := d.notIn[k]; !ok && !excused(d.backend, f) {
				extra = append(extra, k)
			}
		}
		sort.Strings(extra)
		for _, k := range extra {
			t.Errorf("only on %s: %s", d.backend, k)
		}
	}
}

func excused(backend string, f fact) bool {
	for _, s := range f.subjects {
		for _, o := range dialectOnly[backend] {
			if s == o {
				return true
			}
		}
	}
	return false
}

// checkDialectOnlyExist keeps dialectOnly honest: what it excuses exists.
func checkDialectOnlyExist(t *testing.T, backend string, facts map[string]fact) {
	t.Helper()
	for _, o := range dialectOnly[backend] {
		found := false
		for _, f := range facts {
			for _, s := range f.subjects {
				found = found || s == o
			}
		}
		if !found {
			t.Errorf("%s: dialect-only %s does not exist", backend, o)
		}
	}
}

// checkTableColumns: the columns the Table helpers write exist.
func checkTableColumns(t *testing.T, backend string, db *store.DB, facts map[string]fact) {
	t.Helper()
	tables := map[string][]string{
		"tasks": db.Tasks().Cols, "models": db.Models().Cols, "projects": db.Projects().Cols,
		"queues": db.Queues().Cols, "workers": db.Workers().Cols,
	}
	have := map[string]bool{}
	for _, f := range facts {
		for _, s := range f.subjects {
			have[s] = true
		}
	}
	for table, cols := range tables {
		for _, c := range append([]string{"id", "doc"}, cols...) {
			if !have["column:"+table+"."+c] {
				t.Errorf("%s: table %s has no column %s", backend, table, c)
			}
		}
	}
}

// column is what the comparison knows of a column.
type column struct {
	name, typ string
	notNull   bool
	pk        int // position in the primary key, 0 = not in it
}

// index is what the comparison knows of an index.
type index struct {
	name            string
	cols            []string // "(expr)" for an expression
	unique, partial bool
}

func readSchema(ctx context.Context, db *store.DB) (map[string]fact, error) {
	tables, err := listTables(ctx, db)
	if err != nil {
		return nil, err
	}
	facts := map[string]fact{}
	add := func(text string, subjects ...string) { facts[text] = fact{text, subjects} }
	for _, tb := range tables {
		ts := "table:" + tb
		add("table "+tb, ts)
		cols, err := readColumns(ctx, db, tb)
		if err != nil {
			return nil, fmt.Errorf("columns of %s: %w", tb, err)
		}
		var pk []string
		for _, c := range cols {
			fam, ok := typeFamily[strings.ToLower(c.typ)]
			if !ok {
				return nil, fmt.Errorf("column %s.%s: type %q has no family in typeFamily", tb, c.name, c.typ)
			}
			null := "null"
			if c.notNull || c.pk > 0 {
				null = "not null"
			}
			add(fmt.Sprintf("column %s.%s %s %s", tb, c.name, fam, null), ts, "column:"+tb+"."+c.name)
			if c.pk > 0 {
				pk = append(pk, fmt.Sprintf("%03d%s", c.pk, c.name))
			}
		}
		sort.Strings(pk)
		for i := range pk {
			pk[i] = pk[i][3:]
		}
		add(fmt.Sprintf("primary key %s (%s)", tb, strings.Join(pk, ", ")), ts)
		idx, err := readIndexes(ctx, db, tb)
		if err != nil {
			return nil, fmt.Errorf("indexes of %s: %w", tb, err)
		}
		for _, ix := range idx {
			kind := "index"
			if ix.unique {
				kind = "unique index"
			}
			if ix.partial {
				kind = "partial " + kind
			}
			add(fmt.Sprintf("%s %s on %s (%s)", kind, ix.name, tb, strings.Join(ix.cols, ", ")), ts, "index:"+ix.name)
		}
	}
	trs, err := readTriggers(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("triggers: %w", err)
	}
	for _, tr := range trs {
		// Bodies differ by dialect, and so may the granularity (PostgreSQL's
		// upkeep triggers fire once per statement, SQLite's per row): the
		// comparison is of what fires, on which table and change.
		add(fmt.Sprintf("trigger %s on %s %s %s", tr.name, tr.table, tr.timing, tr.event), "table:"+tr.table, "trigger:"+tr.name)
	}
	views, err := listViews(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("views: %w", err)
	}
	for _, v := range views {
		add("view "+v, "view:"+v)
	}
	return facts, nil
}

// trigger is what the comparison knows of a trigger: one per event it
// fires on.
type trigger struct {
	name, table string
	timing      string // BEFORE, AFTER, INSTEAD OF
	event       string // INSERT, DELETE, UPDATE or UPDATE OF a, b
}

// sqliteTriggerHead reads the timing and event of a SQLite trigger from
// the statement sqlite_master keeps.
var sqliteTriggerHead = regexp.MustCompile(`(?is)^\s*CREATE\s+(?:TEMP(?:ORARY)?\s+)?TRIGGER\s+(?:IF\s+NOT\s+EXISTS\s+)?\S+\s+` +
	`(BEFORE\s+|AFTER\s+|INSTEAD\s+OF\s+)?(INSERT|DELETE|UPDATE(?:\s+OF\s+[\w",\s]+?)?)\s+ON\s`)

func readTriggers(ctx context.Context, db *store.DB) ([]trigger, error) {
	var out []trigger
	if db.D.Name() == "postgres" {
		rows, err := db.Read().QueryContext(ctx, `SELECT t.trigger_name, t.event_object_table, t.action_timing, t.event_manipulation,
				COALESCE((SELECT string_agg(u.event_object_column, ', ' ORDER BY u.event_object_column)
					FROM information_schema.triggered_update_columns u
					WHERE u.trigger_schema = t.trigger_schema AND u.trigger_name = t.trigger_name
					AND u.event_object_table = t.event_object_table), '')
			FROM information_schema.triggers t WHERE t.trigger_schema = 'public'`)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		for rows.Next() {
			var tr trigger
			var cols string
			if err := rows.Scan(&tr.name, &tr.table, &tr.timing, &tr.event, &cols); err != nil {
				return nil, err
			}
			if cols != "" && tr.event == "UPDATE" {
				tr.event += " OF " + cols
			}
			out = append(out, tr)
		}
		return out, rows.Err()
	}
	rows, err := db.Read().QueryContext(ctx, `SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger'`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var tr trigger
		var stmt string
		if err := rows.Scan(&tr.name, &tr.table, &stmt); err != nil {
			return nil, err
		}
		m := sqliteTriggerHead.FindStringSubmatch(stmt)
		if m == nil {
			return nil, fmt.Errorf("trigger %s: cannot read its timing and event from %.80q", tr.name, stmt)
		}
		tr.timing = strings.ToUpper(strings.Join(strings.Fields(m[1]), " "))
		if tr.timing == "" {
			tr.timing = "BEFORE" // SQLite's default
		}
		tr.event = strings.ToUpper(strings.Fields(m[2])[0])
		if f := strings.Fields(m[2]); len(f) > 2 && strings.EqualFold(f[1], "OF") {
			var names []string
			for _, c := range strings.Split(strings.Join(f[2:], ""), ",") {
				names = append(names, strings.Trim(c, `"`))
			}
			sort.Strings(names)
			tr.event += " OF " + strings.Join(names, ", ")
		}
		out = append(out, tr)
	}
	return out, rows.Err()
}

func listViews(ctx context.Context, db *store.DB) ([]string, error) {
	q := `SELECT name FROM sqlite_master WHERE type = 'view'`
	if db.D.Name() == "postgres" {
		q = `SELECT viewname FROM pg_views WHERE schemaname = 'public'`
	}
	return store.IDs(ctx, db.Read(), q)
}

func listTables(ctx context.Context, db *store.DB) ([]string, error) {
	q := `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\'`
	if db.D.Name() == "postgres" {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`
	}
	names, err := store.IDs(ctx, db.Read(), q)
	sort.Strings(names)
	return names, err
}

func readColumns(ctx context.Context, db *store.DB, table string) ([]column, error) {
	q := `SELECT name, type, "notnull", pk FROM pragma_table_info(?)`
	if db.D.Name() == "postgres" {
		q = `SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END,
			COALESCE((SELECT k.ordinal_position FROM information_schema.table_constraints tc
				JOIN information_schema.key_column_usage k ON k.constraint_name = tc.constraint_name AND k.table_schema = tc.table_schema
				WHERE tc.table_schema = 'public' AND tc.table_name = c.table_name AND tc.constraint_type = 'PRIMARY KEY'
				AND k.column_name = c.column_name), 0)
			FROM information_schema.columns c WHERE c.table_schema = 'public' AND c.table_name = ?`
	}
	rows, err := db.Read().QueryContext(ctx, q, table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []column
	for rows.Next() {
		var c column
		var notNull int
		if err := rows.Scan(&c.name, &c.typ, &notNull, &c.pk); err != nil {
			return nil, err
		}
		c.notNull = notNull != 0
		out = append(out, c)
	}
	return out, rows.Err()
}

// readIndexes lists a table's indexes other than its primary key's.
func readIndexes(ctx context.Context, db *store.DB, table string) ([]index, error) {
	q := `SELECT l.name, l."unique", l.partial, COALESCE(i.name, '(expr)')
		FROM pragma_index_list(?) AS l, pragma_index_info(l.name) AS i
		WHERE l.origin <> 'pk' ORDER BY l.name, i.seqno`
	if db.D.Name() == "postgres" {
		q = `SELECT ic.relname, CASE WHEN x.indisunique THEN 1 ELSE 0 END, CASE WHEN x.indpred IS NULL THEN 0 ELSE 1 END,
			COALESCE(a.attname, '(expr)')
			FROM pg_index x
			JOIN pg_class ic ON ic.oid = x.indexrelid
			JOIN pg_class tc ON tc.oid = x.indrelid
			JOIN pg_namespace n ON n.oid = tc.relnamespace
			CROSS JOIN LATERAL unnest(x.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
			LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum AND k.attnum > 0
			WHERE n.nspname = 'public' AND tc.relname = ? AND NOT x.indisprimary
			ORDER BY ic.relname, k.ord`
	}
	rows, err := db.Read().QueryContext(ctx, q, table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []index
	for rows.Next() {
		var name, col string
		var unique, partial int
		if err := rows.Scan(&name, &unique, &partial, &col); err != nil {
			return nil, err
		}
		if len(out) == 0 || out[len(out)-1].name != name {
			out = append(out, index{name: name, unique: unique != 0, partial: partial != 0})
		}
		ix := &out[len(out)-1]
		ix.cols = append(ix.cols, col)
	}
	return out, rows.Err()
}
