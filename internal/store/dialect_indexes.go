package store

// Conditions answered from indexes that only one dialect can build.

// InputModelCond uses the trigger-kept task_input_models table of SQLite
// migration 0022 (SQLite cannot index inside a JSON array); the JSON test
// then confirms each candidate.
func (d sqliteDialect) InputModelCond(modelID string) (string, []any) {
	return "id IN (SELECT task FROM task_input_models WHERE model = ?) AND " + d.ArrayObjHas("doc"),
		[]any{modelID, d.JSONPathArg([]string{"models", "input"}), d.JSONPathArg([]string{"model"}), modelID}
}

// InputModelCond is the containment test the GIN index of PostgreSQL
// migration 0022 answers (the expression must match the index's).
func (postgresDialect) InputModelCond(modelID string) (string, []any) {
	return "(doc -> 'models' -> 'input') @> jsonb_build_array(jsonb_build_object('model', ?::text))", []any{modelID}
}

// TextKeyEq is "col = value" for a free-text column of the name tables of
// migration 0075, in the form their unique keys answer: SQLite keys the
// text itself.
func (sqliteDialect) TextKeyEq(col, value string) (string, []any) {
	return col + " = ?", []any{value}
}

// TextKeyEq: PostgreSQL keys the md5 of the text (a B-tree entry cannot
// hold long text); the text comparison settles a collision.
func (postgresDialect) TextKeyEq(col, value string) (string, []any) {
	return "md5(" + col + ") = md5(?::text) AND " + col + " = ?", []any{value, value}
}
