package store

import (
	"context"
	"database/sql"
	"strings"
	"sync"
)

// stmtCache keeps prepared statements per pool: preparing dominates the
// cost of small queries on SQLite. Dynamic SQL (list queries) would grow
// it without end, so it stops caching at a fixed size.
type stmtCache struct {
	db    *sql.DB
	mu    sync.RWMutex
	stmts map[string]*sql.Stmt
}

const maxCachedStmts = 512

// maxCachedQuery is the longest query text the cache keeps: a statement
// with thousands of placeholders (a list of ids) compiles to a program as
// large, kept on every connection it ran on, and such queries rarely
// repeat. Caching them held hundreds of MiB under trove-bench hostile.
// The multi-row statements of event ingest (a few fixed shapes, run for
// every batch) are kept whatever their length: compiling a 512-row
// INSERT for each batch cost a fifth of ingest's CPU.
const maxCachedQuery = 4096

// cacheable reports a query text the cache may keep.
func cacheable(query string) bool {
	return len(query) <= maxCachedQuery || isFixedShape(query)
}

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, stmts: map[string]*sql.Stmt{}}
}

// lookup returns a cached statement or nil, without preparing.
func (c *stmtCache) lookup(query string) *sql.Stmt {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.stmts[query]
}

// get returns a prepared statement for query, or nil when the cache is full
// or preparing failed (the caller then runs the query unprepared). It needs
// a free connection of the pool, so it is never called inside a transaction.
func (c *stmtCache) get(ctx context.Context, query string) *sql.Stmt {
	c.mu.RLock()
	st := c.stmts[query]
	n := len(c.stmts)
	c.mu.RUnlock()
	if st != nil || n >= maxCachedStmts || !cacheable(query) {
		return st
	}
	// Prepare without holding c.mu: preparing waits for a free connection,
	// and a transaction holding the pool's only SQLite writer connection
	// may itself be waiting in lookup for c.mu (a deadlock).
	st, err := c.db.PrepareContext(ctx, query)
	if err != nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.stmts[query]; old != nil {
		st.Close()
		return old
	}
	c.stmts[query] = st
	return st
}

func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, st := range c.stmts {
		st.Close()
	}
	c.stmts = map[string]*sql.Stmt{}
}

// cachedQuerier runs queries of a pool (or a transaction on it) through
// the statement cache.
type cachedQuerier struct {
	cache *stmtCache
	tx    *sql.Tx // nil outside a transaction
	q     Querier
	d     Dialect
	// missed collects queries a transaction ran unprepared; they are
	// prepared after it ends (the pool's only SQLite writer connection is
	// busy until then).
	missed map[string]bool
	// hooks is the transaction's (nil outside DB.Tx)
	hooks *commitHooks
}

func (c *cachedQuerier) stmt(ctx context.Context, query string) *sql.Stmt {
	if c.tx == nil {
		return c.cache.get(ctx, query)
	}
	st := c.cache.lookup(query)
	if st == nil && cacheable(query) {
		if c.missed == nil {
			c.missed = map[string]bool{}
		}
		c.missed[query] = true
	}
	if st == nil {
		return nil
	}
	return c.tx.StmtContext(ctx, st)
}

// prepareMissed prepares what a finished transaction ran unprepared.
func (c *cachedQuerier) prepareMissed(ctx context.Context) {
	if c == nil {
		return
	}
	for q := range c.missed {
		c.cache.get(ctx, q)
	}
}

func (c *cachedQuerier) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	query = c.d.Rebind(query)
	if st := c.stmt(ctx, query); st != nil { //nolint:sqlclosecheck // the stmtCache owns and closes it
		return st.ExecContext(ctx, args...)
	}
	return c.q.ExecContext(ctx, query, args...)
}

func (c *cachedQuerier) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	query = c.d.Rebind(query)
	if st := c.stmt(ctx, query); st != nil { //nolint:sqlclosecheck // the stmtCache owns and closes it
		return st.QueryContext(ctx, args...)
	}
	return c.q.QueryContext(ctx, query, args...)
}

func (c *cachedQuerier) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	query = c.d.Rebind(query)
	if st := c.stmt(ctx, query); st != nil { //nolint:sqlclosecheck // the stmtCache owns and closes it
		return st.QueryRowContext(ctx, args...)
	}
	return c.q.QueryRowContext(ctx, query, args...)
}

// Multi-row statements (the event storage's inserts and updates).

var multiSQL sync.Map // multiKey -> statement text

// multiKey identifies a statement of MultiRowSQL (a struct, not a
// formatted string: the lookup runs for every statement of every batch).
type multiKey struct {
	dialect, head, row, tail string
	size                     int
}

// fixedShapes holds the texts MultiRowSQL built: a bounded set of
// statements that run for every batch, which the statement cache keeps
// however long they are (cachedQuerier).
var fixedShapes sync.Map

// isFixedShape reports a statement text of MultiRowSQL.
func isFixedShape(query string) bool {
	_, ok := fixedShapes.Load(query)
	return ok
}

// MultiRowSQL builds "head VALUES (row), ... tail" for size rows, in the
// dialect's placeholders (rebinding hundreds of placeholders
// per statement would cost as much as encoding the rows).
func MultiRowSQL(d Dialect, head, row, tail string, size int) string {
	key := multiKey{d.Name(), head, row, tail, size}
	if v, ok := multiSQL.Load(key); ok {
		return v.(string)
	}
	var b strings.Builder
	b.WriteString(head)
	b.WriteString(" VALUES ")
	for i := 0; i < size; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(row)
	}
	b.WriteString(tail)
	sqlText := d.Rebind(b.String())
	fixedShapes.Store(sqlText, true)
	multiSQL.Store(key, sqlText)
	return sqlText
}
