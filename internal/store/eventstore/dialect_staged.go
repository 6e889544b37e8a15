package eventstore

import "strings"

// SQLite stages the points of small batches in event_scalars_staged
// (migration 0108, staged.go); readers see the two tables as one
// through scalarsFrom, as PostgreSQL's readers see its packed blocks.
// PostgreSQL has no staging table.

// stagedDialect is a dialect that stages the points of small batches.
type stagedDialect interface {
	// stagedScalarsSQL is a FROM item of the points (series, iter, value,
	// dts, dwts) of the series matching "series "+cond with
	// lo <= iter <= hi, staged or not. Its placeholders are cond's, lo,
	// hi, then the point limit when limited, and all of those again.
	// limited says the statement reads at most that many points in
	// iteration order (desc: downwards), so each table gives only its
	// first ones.
	stagedScalarsSQL(cond string, limited, desc bool) string
	// allStagedScalarsSQL is a FROM item of every point, staged or not,
	// with event_scalars' columns.
	allStagedScalarsSQL() string
}

// stagedTable holds the staged points, with event_scalars' columns and
// key.
const stagedTable = "event_scalars_staged"

const stagedCols = "series, iter, value, dts, dwts"

func (sqliteEvents) stagedScalarsSQL(cond string, limited, desc bool) string {
	var b strings.Builder
	b.WriteString("(")
	for i, table := range []string{"event_scalars", stagedTable} {
		if i > 0 {
			b.WriteString(" UNION ALL ")
		}
		if limited {
			b.WriteString("SELECT * FROM (")
		}
		b.WriteString("SELECT " + stagedCols + " FROM " + table + " WHERE series " + cond + " AND iter >= ? AND iter <= ?")
		if limited {
			b.WriteString(" ORDER BY iter")
			if desc {
				b.WriteString(" DESC")
			}
			b.WriteString(" LIMIT ?)")
		}
	}
	b.WriteString(")")
	return b.String()
}

func (sqliteEvents) allStagedScalarsSQL() string {
	return "(SELECT " + stagedCols + " FROM event_scalars UNION ALL SELECT " + stagedCols + " FROM " + stagedTable + ") AS event_scalars"
}

// stagedFrom is scalarsFrom where the store stages points.
func stagedFrom(sd stagedDialect, cond string, condArgs []any, lo, hi int64, limit int, desc bool) (string, []any) {
	args := make([]any, 0, 2*len(condArgs)+6)
	for range 2 {
		args = append(args, condArgs...)
		args = append(args, lo, hi)
		if limit > 0 {
			args = append(args, limit)
		}
	}
	return sd.stagedScalarsSQL(cond, limit > 0, desc), args
}
