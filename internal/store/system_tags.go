package store

// ArchivedTag is the system tag of archived tasks and models.
const ArchivedTag = "archived"

// SystemTagged is the condition "the row's system_tags hold the tag given
// as its one placeholder argument". Every system-tag test of a row
// (archived, hidden, default queue) is written with it or its negation.
func SystemTagged(d Dialect) string { return d.ArrayHas("system_tags") }

// NotSystemTagged is the condition "the row's system_tags do not hold the
// tag given as its one placeholder argument" (e.g. not archived).
func NotSystemTagged(d Dialect) string { return "NOT " + SystemTagged(d) }

// archivedCond is the condition on archived rows: nil = no condition,
// true = archived only, false = not archived only.
func archivedCond(d Dialect, archived *bool) (string, []any) {
	switch {
	case archived == nil:
		return "", nil
	case *archived:
		return " AND " + SystemTagged(d), []any{ArchivedTag}
	}
	return " AND " + NotSystemTagged(d), []any{ArchivedTag}
}
