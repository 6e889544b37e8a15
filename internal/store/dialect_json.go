package store

// Document writes and orders that differ between the dialects.

func (sqliteDialect) InsertOrder() string { return "rowid" }

// InsertOrder is seq: PostgreSQL rows have no stable row id, so the
// document tables take a number from trove_seq (migration 0001).
func (postgresDialect) InsertOrder() string { return "seq" }

func (sqliteDialect) ArrayObjHas(col string) string {
	return "EXISTS (SELECT 1 FROM json_each(" + col + ", ?) AS e WHERE json_extract(e.value, ?) = ?)"
}

func (postgresDialect) ArrayObjHas(col string) string {
	return "EXISTS (SELECT 1 FROM jsonb_array_elements(trove_arr(" + col + " #> ?::text[])) AS e(v) WHERE e.v #>> ?::text[] = ?)"
}

func (sqliteDialect) ArrayObjEach(col, alias string) (string, string) {
	return "json_each(" + col + ", ?) AS " + alias, "json_extract(" + alias + ".value, ?)"
}

func (postgresDialect) ArrayObjEach(col, alias string) (string, string) {
	return "jsonb_array_elements(trove_arr(" + col + " #> ?::text[])) AS " + alias + "(v)", "(" + alias + ".v #>> ?::text[])"
}

func (sqliteDialect) JSONSetText(col string) string { return "json_set(" + col + ", ?, ?)" }

func (postgresDialect) JSONSetText(col string) string {
	return "jsonb_set(" + col + ", ?::text[], to_jsonb(?::text))"
}

func (sqliteDialect) JSONRemove(col string) string { return "json_remove(" + col + ", ?)" }

func (postgresDialect) JSONRemove(col string) string { return "(" + col + " #- ?::text[])" }

func (sqliteDialect) MigrationLock() string { return "" }

// MigrationLock takes a transaction-scoped advisory lock: two processes
// starting at once must not both apply a migration.
func (postgresDialect) MigrationLock() string { return "SELECT pg_advisory_xact_lock(774411)" }

// DrivingJoin is CROSS JOIN: SQLite's planner then keeps the driver (the
// left table) as the outer loop, walking its index in order.
func (sqliteDialect) DrivingJoin() string { return "CROSS JOIN" }

// DrivingJoin is JOIN: PostgreSQL's planner chooses the loop order from
// its statistics.
func (postgresDialect) DrivingJoin() string { return "JOIN" }
