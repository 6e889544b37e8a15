package store

import (
	"context"
	"database/sql/driver"
	"strings"
	"sync/atomic"
)

// Tests of cancellation and shutdown need a statement that runs until its
// context ends, whatever the machine's speed. On SQLite, StallQueries makes
// every query bound to an argument containing a marker run an endless
// statement in its place (a recursive count that never finishes), which
// only the context's end interrupts; it spends a core while it runs, as a
// real slow scan would. PostgreSQL tests hold a table lock instead (see
// internal/testenv/slow.go).

// stallMarker is the marker of StallQueries ("" when off).
var stallMarker atomic.Pointer[string]

// endlessStatement counts without end; sqlite3_interrupt stops it.
const endlessStatement = `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c`

// StallQueries makes the SQLite queries with an argument containing marker
// run until their context ends, and returns a function that ends it. For
// tests only.
func StallQueries(marker string) (restore func()) {
	old := stallMarker.Swap(&marker)
	return func() { stallMarker.Store(old) }
}

// stallsRunning counts the endless statements running now.
var stallsRunning atomic.Int64

// StalledQueries is the number of queries StallQueries holds right now
// (tests wait for a request to be held, or for it to have stopped).
func StalledQueries() int64 { return stallsRunning.Load() }

// stalled says whether a query with args is to stall.
func stalled(args []driver.NamedValue) bool {
	m := stallMarker.Load()
	if m == nil || *m == "" {
		return false
	}
	for _, a := range args {
		if s, ok := a.Value.(string); ok && strings.Contains(s, *m) {
			return true
		}
	}
	return false
}

// stall runs the endless statement on c until ctx ends and returns the
// reason it ended.
func (c *interruptibleConn) stall(ctx context.Context) error {
	stallsRunning.Add(1)
	defer stallsRunning.Add(-1)
	rows, err := c.inner.(driver.QueryerContext).QueryContext(ctx, endlessStatement, nil)
	if err == nil {
		rows = c.watch(ctx, rows)
		dest := make([]driver.Value, 1)
		err = rows.Next(dest)
		rows.Close()
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}
