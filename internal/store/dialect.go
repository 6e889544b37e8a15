package store

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// Dialect holds every SQL difference between SQLite and PostgreSQL. Callers
// write SQL with ? placeholders and JSON access through these methods.
type Dialect interface {
	Name() string
	// Rebind converts ? placeholders.
	Rebind(q string) string
	// JSONText is a SQL expression for the text at path inside a JSON column,
	// taking one placeholder argument: JSONPathArg(path).
	JSONText(col string) string
	// JSONValue is like JSONText but keeps JSON typing, for ordering.
	JSONValue(col string) string
	// JSONOfText is a TEXT column holding JSON as a JSON column, for
	// JSONText (the MLflow trace tables keep their documents as text).
	JSONOfText(col string) string
	// JSONPathArg encodes a path for JSONText/JSONValue.
	JSONPathArg(path []string) string
	// ArrayHas is a condition: the JSON array expr contains the text value of
	// the single placeholder.
	ArrayHas(expr string) string
	// ArrayLen is the length of a JSON array expression (NULL-safe: 0).
	ArrayLen(expr string) string
	// JSONSub is the JSON value at one placeholder path (for ArrayHas/ArrayLen).
	JSONSub(col string) string
	// Regex is a condition matching expr against the placeholder pattern.
	Regex(expr string, caseInsensitive bool) string
	// RegexArg is the value to bind to Regex's placeholder for a client's
	// pattern on field: on SQLite a token that charges the matching time to
	// budget, shared by a query's patterns (regex_budget.go); on PostgreSQL
	// the pattern itself (bounded by the call's deadline).
	RegexArg(pattern, field string, caseInsensitive bool, budget *PatternBudget) (any, error)
	// Num is expr as a number when it spells one, else NULL.
	Num(expr string) string
	// ILike is a case-insensitive LIKE against the placeholder.
	ILike(expr string) string
	// ForUpdate is the suffix that locks selected rows in a transaction.
	ForUpdate() string
	// RowVersion is an expression that changes whenever a row is
	// rewritten (events' task upkeep compares it instead of documents).
	RowVersion() string
	// ForUpdateSkipLocked is the suffix that locks selected rows for an
	// update of non-key columns, skipping rows other transactions hold
	// (work-queue hand-out without waiting).
	ForUpdateSkipLocked() string
	// ArrayElements returns a FROM item and the value expression that
	// enumerate the text elements of a JSON array column.
	ArrayElements(col, alias string) (from, value string)
	// JSONParam is the placeholder for a JSON document argument.
	JSONParam() string
	// IsUniqueViolation reports a unique-constraint failure.
	IsUniqueViolation(err error) bool
	// IsForeignKeyViolation reports a write that refers to a missing row.
	IsForeignKeyViolation(err error) bool
	// Retryable reports transient transaction failures.
	Retryable(err error) bool
	// InvalidPattern reports a client's pattern the database's regex
	// engine refused (one Go's engine accepts), with the engine's reason.
	InvalidPattern(err error) (reason string, ok bool)

	// InsertOrder is the expression that orders the rows of a document
	// table by insertion.
	InsertOrder() string
	// DrivingJoin joins a driven list query's side table (on the left) to
	// the listed table, walking the side table's index in order.
	DrivingJoin() string
	// ArrayObjHas is a condition: the JSON array at the first placeholder
	// path of col holds an object whose member at the second placeholder
	// path equals the third placeholder.
	ArrayObjHas(col string) string
	// ArrayObjEach returns a FROM item over the objects of the JSON array
	// at the first placeholder (a path into col) and the text expression
	// of one object's value at the second placeholder (a path into the
	// object): EXISTS over them tests "some element ...".
	ArrayObjEach(col, alias string) (from, value string)
	// JSONSetText is col with the text of the second placeholder stored at
	// the first placeholder path (JSONPathArg).
	JSONSetText(col string) string
	// JSONRemove is col without the member at the placeholder path.
	JSONRemove(col string) string
	// InputModelCond is the condition "the task lists modelID among its
	// input models" on the tasks table, answered from the dialect's index
	// of input models (see dialect_indexes.go).
	InputModelCond(modelID string) (string, []any)
	// TextKeyEq is the condition "col = value" on a free-text key column
	// of the name tables (task_param_names ...), with its arguments, in
	// the form the tables' unique keys answer.
	TextKeyEq(col, value string) (string, []any)
	// CountKey is the ON CONFLICT target of a count table (record_facets,
	// task_param_names, ...): its unique key (see dialect_counts.go).
	CountKey(table string) string
	// LockWrites is the statement that keeps other transactions from
	// writing table until this one ends ("" where one writer already does).
	LockWrites(table string) string
	// MigrationLock is the statement that serializes concurrent migration
	// runs inside their transaction ("" when transactions already do).
	MigrationLock() string
	// UseIncrementalVacuum and ReclaimFreePages manage the space of
	// deleted rows (see dialect_space.go).
	UseIncrementalVacuum(ctx context.Context, q Querier, maxBytes int64) (bool, error)
	ReclaimFreePages(ctx context.Context, q Querier, maxPages int) (int64, error)
	// ClusterLock and ClusterUnlock are the statements that take (waiting
	// or not) and release a lock shared by every process on the database,
	// keyed by the one placeholder; "" where one process owns the database
	// (see dialect_cluster.go).
	ClusterLock(wait bool) string
	ClusterUnlock() string
	// WatchChannel hands the messages other processes send on channel to
	// msg until ctx ends or the connection fails (see dialect_cluster.go).
	WatchChannel(ctx context.Context, dsn, channel string, ready func(), msg func(payload string)) error
	// GroupTxSettings are the statements run on the writer's connection
	// before and after a group transaction (DB.GroupTx); "" for none
	// (see grouptx.go).
	GroupTxSettings() (enter, leave string)
	// DefersNameCounts reports that the metric-name counts the events
	// writer works out are appended to task_metric_variant_deltas and
	// folded later, instead of added to the count rows in its transaction
	// (task_name_counts.go).
	DefersNameCounts() bool
	// TaskMetricsPause are the statements that turn the tasks' metrics
	// trigger off and on again inside a transaction, for the writes whose
	// names the events writer counts (task_name_counts.go).
	TaskMetricsPause() (off, on string)
}

type sqliteDialect struct{}

func (sqliteDialect) Name() string                 { return "sqlite" }
func (sqliteDialect) Rebind(q string) string       { return q }
func (sqliteDialect) JSONText(col string) string   { return "json_extract(" + col + ", ?)" }
func (sqliteDialect) JSONOfText(col string) string { return col }
func (sqliteDialect) JSONValue(col string) string {
	return "json_extract(" + col + ", ?)"
}
func (sqliteDialect) JSONPathArg(path []string) string {
	var b strings.Builder
	b.WriteString("$")
	for _, p := range path {
		b.WriteString(`."`)
		b.WriteString(strings.ReplaceAll(p, `"`, ``))
		b.WriteString(`"`)
	}
	return b.String()
}
func (sqliteDialect) ArrayHas(expr string) string {
	return "EXISTS (SELECT 1 FROM json_each(" + expr + ") WHERE json_each.value = ?)"
}
func (sqliteDialect) ArrayLen(expr string) string {
	return "COALESCE(json_array_length(" + expr + "), 0)"
}
func (sqliteDialect) JSONSub(col string) string { return "json_extract(" + col + ", ?)" }
func (sqliteDialect) Regex(expr string, ci bool) string {
	if ci {
		return "(" + expr + " REGEXP ('(?i)' || ?))"
	}
	return "(" + expr + " REGEXP ?)"
}
func (sqliteDialect) RegexArg(pattern, field string, ci bool, budget *PatternBudget) (any, error) {
	// The token carries the case flag, so Regex is used with ci false.
	return registerBudgetedPattern(pattern, field, ci, budget)
}
func (sqliteDialect) Num(expr string) string   { return "trove_num(" + expr + ")" }
func (sqliteDialect) ILike(expr string) string { return expr + " LIKE ? ESCAPE '\\'" }
func (sqliteDialect) ForUpdate() string        { return "" }

// RowVersion: SQLite keeps no row version; the document itself serves,
// read in-process.
func (sqliteDialect) RowVersion() string { return "doc" }

// GroupTxSettings keep the group's statement journals in memory (the
// default, restored after, is a file past 64 KiB; see grouptx.go).
func (sqliteDialect) GroupTxSettings() (enter, leave string) {
	return "PRAGMA temp_store = MEMORY", "PRAGMA temp_store = DEFAULT"
}
func (sqliteDialect) ForUpdateSkipLocked() string { return "" }
func (sqliteDialect) JSONParam() string           { return "?" }
func (sqliteDialect) ArrayElements(col, alias string) (string, string) {
	return "json_each(" + col + ") AS " + alias, alias + ".value"
}
func (sqliteDialect) IsUniqueViolation(err error) bool {
	return err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed")
}
func (sqliteDialect) IsForeignKeyViolation(err error) bool {
	return err != nil && strings.Contains(err.Error(), "FOREIGN KEY constraint failed")
}
func (sqliteDialect) InvalidPattern(error) (string, bool) {
	return "", false // REGEXP runs Go's engine, which checked the pattern first
}
func (sqliteDialect) Retryable(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "SQLITE_BUSY") || strings.Contains(err.Error(), "database is locked"))
}

type postgresDialect struct{}

func (postgresDialect) Name() string { return "postgres" }

// Rebind turns ? into $n, leaving quoted literals alone.
func (postgresDialect) Rebind(q string) string {
	if !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	b.Grow(len(q) + 16)
	n := 0
	inStr := false
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '\'':
			inStr = !inStr
			b.WriteByte(c)
		case c == '?' && !inStr:
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
func (postgresDialect) JSONText(col string) string   { return "(" + col + " #>> ?::text[])" }
func (postgresDialect) JSONOfText(col string) string { return "CAST(" + col + " AS jsonb)" }
func (postgresDialect) JSONValue(col string) string  { return "(" + col + " #> ?::text[])" }
func (postgresDialect) JSONPathArg(path []string) string {
	var b strings.Builder
	b.WriteString("{")
	for i, p := range path {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"`)
		b.WriteString(strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(p))
		b.WriteString(`"`)
	}
	b.WriteString("}")
	return b.String()
}
func (postgresDialect) ArrayHas(expr string) string {
	return "(" + expr + " @> jsonb_build_array(?::text))"
}
func (postgresDialect) ArrayLen(expr string) string { return "trove_arrlen(" + expr + ")" }
func (postgresDialect) JSONSub(col string) string   { return "(" + col + " #> ?::text[])" }
func (postgresDialect) Regex(expr string, ci bool) string {
	if ci {
		return "(" + expr + " ~* ?)"
	}
	return "(" + expr + " ~ ?)"
}
func (postgresDialect) RegexArg(pattern, _ string, _ bool, _ *PatternBudget) (any, error) {
	return pattern, nil
}
func (postgresDialect) Num(expr string) string   { return "trove_num(" + expr + ")" }
func (postgresDialect) ILike(expr string) string { return expr + " ILIKE ?" }
func (postgresDialect) ForUpdate() string        { return " FOR UPDATE" }

// RowVersion: every update writes a new row version with its
// transaction's id as xmin at a new ctid; the pair names the version.
func (postgresDialect) RowVersion() string { return "xmin::text || ':' || ctid::text" }

// TaskMetricsPause: a row in upkeep_pauses, which the trigger's WHEN
// reads (migration 0106).
func (sqliteDialect) TaskMetricsPause() (off, on string) {
	return "INSERT INTO upkeep_pauses (entity) VALUES ('task_metrics')", "DELETE FROM upkeep_pauses WHERE entity = 'task_metrics'"
}

// TaskMetricsPause: a setting local to the transaction, which the
// trigger's WHEN reads (migration 0106). A row in upkeep_pauses, written
// and deleted by every group adding names, left dead rows that the WHEN of
// every trigger on tasks scanned until vacuum came by.
func (postgresDialect) TaskMetricsPause() (off, on string) {
	return "SELECT set_config('trove.task_metrics_paused', 'on', true)", "SELECT set_config('trove.task_metrics_paused', '', true)"
}

// DefersNameCounts: SQLite's one writer waits on no other transaction.
func (sqliteDialect) DefersNameCounts() bool { return false }

// DefersNameCounts: concurrent transactions adding to a project's count
// rows wait for each other's commits (migration 0106).
func (postgresDialect) DefersNameCounts() bool { return true }

// GroupTxSettings: none; PostgreSQL undoes a failed statement without
// journalling pages to a file.
func (postgresDialect) GroupTxSettings() (enter, leave string) { return "", "" }
func (postgresDialect) ForUpdateSkipLocked() string {
	return " FOR NO KEY UPDATE SKIP LOCKED"
}
func (postgresDialect) JSONParam() string { return "?::jsonb" }
func (postgresDialect) ArrayElements(col, alias string) (string, string) {
	return "jsonb_array_elements_text(trove_arr(" + col + ")) AS " + alias + "(v)", alias + ".v"
}
func (postgresDialect) IsUniqueViolation(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}
func (postgresDialect) IsForeignKeyViolation(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23503"
}
func (postgresDialect) InvalidPattern(err error) (string, bool) {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "2201B" { // invalid_regular_expression
		return pe.Message, true
	}
	return "", false
}
func (postgresDialect) Retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}
