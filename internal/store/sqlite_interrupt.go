package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"reflect"
	"sync"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// The SQLite driver interrupts a statement whose context ends while it
// runs inside Exec or while a query computes its first row, but not while
// Rows.Next steps to a later row: a scan that matches its first row early
// and the rest late ran on after its client had gone, holding a core. This
// wrapper of the driver interrupts the connection (sqlite3_interrupt) when
// the context of a query ends while its rows are open, so every step of
// every statement stops within the VM's next check.

// interruptingDriverName is the database/sql name of the wrapped driver.
const interruptingDriverName = "trove-sqlite"

var registerInterruptingOnce sync.Once

// registerInterruptingDriver registers the wrapper around the driver
// registered as "sqlite" (the one the REGEXP and trove_num functions were
// added to).
func registerInterruptingDriver() {
	registerInterruptingOnce.Do(func() {
		db, _ := sql.Open("sqlite", "")
		inner := db.Driver()
		db.Close()
		sql.Register(interruptingDriverName, interruptingDriver{inner: inner})
	})
}

type interruptingDriver struct{ inner driver.Driver }

func (d interruptingDriver) Open(name string) (driver.Conn, error) {
	c, err := d.inner.Open(name)
	if err != nil {
		return nil, err
	}
	return &interruptibleConn{inner: c, handle: sqliteHandle(c)}, nil
}

// sqliteHandle is the sqlite3* of a driver connection, or 0 when it cannot
// be found (a later driver may rename its field; TestSQLiteInterruptsSteps
// then fails, and queries are interrupted only as the driver does).
func sqliteHandle(c driver.Conn) uintptr {
	v := reflect.ValueOf(c)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return 0
	}
	f := v.Elem().FieldByName("db")
	if !f.IsValid() || f.Kind() != reflect.Uintptr {
		return 0
	}
	return uintptr(f.Uint())
}

// interruptibleConn forwards to the driver's connection; mu keeps an
// interrupt from reaching a connection being closed.
type interruptibleConn struct {
	inner  driver.Conn
	handle uintptr
	mu     sync.Mutex
	closed bool
}

// interruptIf interrupts the connection's running statements if open
// still holds (checked under the connection's lock).
func (c *interruptibleConn) interruptIf(open *bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || !*open || c.handle == 0 {
		return
	}
	tls := libc.NewTLS() // not the connection's: it may be running on it
	sqlite3.Xsqlite3_interrupt(tls, c.handle)
	tls.Close()
}

// watch wraps rows of a query under ctx.
func (c *interruptibleConn) watch(ctx context.Context, rows driver.Rows) driver.Rows {
	if ctx.Done() == nil {
		return rows
	}
	r := &interruptibleRows{Rows: rows, ctx: ctx, c: c, open: true}
	r.stop = context.AfterFunc(ctx, func() { c.interruptIf(&r.open) })
	return r
}

func (c *interruptibleConn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

func (c *interruptibleConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	st, err := c.inner.(driver.ConnPrepareContext).PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	return &interruptibleStmt{Stmt: st, c: c}, nil
}

func (c *interruptibleConn) Close() error {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	return c.inner.Close()
}

func (c *interruptibleConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

func (c *interruptibleConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	return c.inner.(driver.ConnBeginTx).BeginTx(ctx, opts)
}

func (c *interruptibleConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return c.inner.(driver.ExecerContext).ExecContext(ctx, query, args)
}

func (c *interruptibleConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if stalled(args) {
		return nil, c.stall(ctx)
	}
	rows, err := c.inner.(driver.QueryerContext).QueryContext(ctx, query, args)
	if err != nil {
		return nil, err
	}
	return c.watch(ctx, rows), nil
}

func (c *interruptibleConn) Ping(ctx context.Context) error {
	return c.inner.(driver.Pinger).Ping(ctx)
}

func (c *interruptibleConn) ResetSession(ctx context.Context) error {
	return c.inner.(driver.SessionResetter).ResetSession(ctx)
}

func (c *interruptibleConn) IsValid() bool { return c.inner.(driver.Validator).IsValid() }

// interruptibleStmt wraps the rows of a prepared statement's queries.
type interruptibleStmt struct {
	driver.Stmt
	c *interruptibleConn
}

func (s *interruptibleStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	return s.Stmt.(driver.StmtExecContext).ExecContext(ctx, args)
}

func (s *interruptibleStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	if stalled(args) {
		return nil, s.c.stall(ctx)
	}
	rows, err := s.Stmt.(driver.StmtQueryContext).QueryContext(ctx, args)
	if err != nil {
		return nil, err
	}
	return s.c.watch(ctx, rows), nil
}

// interruptibleRows are open rows whose context is watched.
type interruptibleRows struct {
	driver.Rows
	ctx  context.Context
	c    *interruptibleConn
	stop func() bool
	open bool // guarded by c.mu
}

func (r *interruptibleRows) Next(dest []driver.Value) error {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	err := r.Rows.Next(dest)
	if err != nil && r.ctx.Err() != nil {
		return r.ctx.Err() // interrupted: say why
	}
	return err
}

func (r *interruptibleRows) Close() error {
	r.c.mu.Lock()
	r.open = false
	r.c.mu.Unlock()
	r.stop()
	return r.Rows.Close()
}

// ColumnTypeDatabaseTypeName is the driver's (Scan uses it for dates).
func (r *interruptibleRows) ColumnTypeDatabaseTypeName(i int) string {
	if t, ok := r.Rows.(driver.RowsColumnTypeDatabaseTypeName); ok {
		return t.ColumnTypeDatabaseTypeName(i)
	}
	return ""
}
