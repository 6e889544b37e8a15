// Package store is Trove's only way to the database. It wraps database/sql
// with two dialects (embedded SQLite, PostgreSQL), applies the embedded
// migrations, and offers small helpers for document tables; the SQL of each
// entity lives in its own file.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib" // PostgreSQL driver
)

// ErrNotFound is returned (wrapped) when a record does not exist.
var ErrNotFound = errors.New("not found")

// Querier is what both *sql.DB and *sql.Tx offer.
type Querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// DB is an open database with its dialect.
type DB struct {
	D Dialect
	// w takes writes (one connection on SQLite); r serves reads.
	w *sql.DB
	r *sql.DB
	// wc and rc cache prepared statements of the write and read pools.
	wc, rc *stmtCache
	// txObserver sees every Tx's duration and outcome (see ObserveTx).
	txObserver func(d time.Duration, err error)
	// lock keeps a second server off a SQLite database.
	lock *fileLock
	// sqlitePath is the SQLite database file ("" on PostgreSQL).
	sqlitePath string
	// dsn and locks serve the locks and messages shared with other
	// processes on a PostgreSQL database (cluster.go).
	dsn   string
	locks *sql.DB
	// localLocks holds a *sync.Mutex per cluster lock name.
	localLocks sync.Map
	// ckpt runs SQLite's checkpoints beside the writer (nil on
	// PostgreSQL).
	ckpt *checkpointer
	// shared holds state of packages below the store that belongs to
	// this open database (Shared).
	shared sync.Map
	// Tightened lists the data dir and database files whose modes let
	// others in and were narrowed at open (filemodes.go), for the log.
	Tightened []Tightened
}

// Open opens (creating if needed) the database named by dsn (see Locate
// for the accepted forms) and applies the migrations. A SQLite database is
// locked against a second server for as long as it is open.
func Open(ctx context.Context, dsn, dataDir string) (*DB, error) {
	return OpenWith(ctx, dsn, dataDir, Options{})
}

// open is Open with the start-up settings of OpenWith.
func open(ctx context.Context, dsn string, opts Options) (*DB, error) {
	loc, err := Locate(dsn, opts.DataDir)
	if err != nil {
		return nil, err
	}
	var db *DB
	if loc.Backend == "postgres" {
		db, err = openPostgres(loc.URL)
	} else {
		db, err = openSQLiteLocked(loc)
	}
	if err != nil {
		return nil, err
	}
	db.wc, db.rc = newStmtCache(db.w), newStmtCache(db.r)
	pctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := db.w.PingContext(pctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect database %s: %w", loc, err)
	}
	if err := db.checkIntegrity(ctx, loc, opts); err != nil {
		db.Close()
		return nil, err
	}
	if err := db.migrate(ctx, opts); err != nil {
		db.Close()
		return nil, fmt.Errorf("database %s: %w", loc, err)
	}
	return db, nil
}

func openPostgres(dsn string) (*DB, error) {
	pc, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	markConnLoss(pc)
	conn := stdlib.OpenDB(*pc)
	conn.SetMaxOpenConns(16)
	conn.SetMaxIdleConns(16)
	conn.SetConnMaxIdleTime(5 * time.Minute)
	return &DB{D: postgresDialect{}, w: conn, r: conn, dsn: dsn, locks: openLockPool(dsn)}, nil
}

// Close closes the connection pools.
func (db *DB) Close() error {
	db.wc.close()
	db.rc.close()
	// before the writer: the last connection to close checkpoints and
	// removes the log
	err := db.ckpt.close()
	db.ckpt = nil
	if e := db.w.Close(); err == nil {
		err = e
	}
	if db.r != db.w {
		if e := db.r.Close(); err == nil {
			err = e
		}
	}
	if db.locks != nil {
		_ = db.locks.Close()
	}
	if e := db.lock.release(); err == nil {
		err = e
	}
	db.lock = nil
	return err
}

// Read returns the read pool.
func (db *DB) Read() Querier { return &cachedQuerier{cache: db.rc, q: db.r, d: db.D} }

// Write returns the write pool, for single statements outside a transaction.
func (db *DB) Write() Querier { return &cachedQuerier{cache: db.wc, q: db.w, d: db.D} }

// WritePool and ReadPool are the connection pools themselves (one pool on
// PostgreSQL), for the packages below the store that work beside DB.Tx:
// the event storage's bulk upkeep and the copier. Their statements take
// the dialect's placeholders; Rebound rewrites ? for them.
func (db *DB) WritePool() *sql.DB { return db.w }

// ReadPool: see WritePool.
func (db *DB) ReadPool() *sql.DB { return db.r }

// Rebound runs q's statements unprepared, with ? rewritten to d's
// placeholders.
func Rebound(q Querier, d Dialect) Querier { return &rawQuerier{q: q, d: d} }

// WriteConcurrency is how many write transactions the store runs at once:
// 1 on SQLite (its single writer connection), the write pool's size on
// PostgreSQL. Group commit sizes its writers by it.
func (db *DB) WriteConcurrency() int {
	return max(1, db.w.Stats().MaxOpenConnections)
}

// IsPostgres reports the backend.
func (db *DB) IsPostgres() bool { return db.D.Name() == "postgres" }

// Tx runs fn in a write transaction, committing when fn returns nil.
// PostgreSQL serialization failures and deadlocks are retried.
func (db *DB) Tx(ctx context.Context, fn func(q Querier) error) error {
	return db.retryTx(func() error { return db.tx(ctx, fn) })
}

// retryTx runs a transaction attempt, again after a transient failure,
// and reports the whole to the transaction observer.
func (db *DB) retryTx(attempt func() error) (err error) {
	if db.txObserver != nil {
		start := time.Now()
		defer func() { db.txObserver(time.Since(start), err) }()
	}
	for n := 0; ; n++ {
		err := attempt()
		if err != nil && n < 5 && db.D.Retryable(err) {
			time.Sleep(time.Duration(n+1) * 5 * time.Millisecond)
			continue
		}
		return db.markFault(err)
	}
}

func (db *DB) tx(ctx context.Context, fn func(q Querier) error) error {
	return db.txWith(ctx, true, fn)
}

// txWith runs one transaction attempt; cached selects the prepared
// statement cache.
func (db *DB) txWith(ctx context.Context, cached bool, fn func(q Querier) error) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	cq, err := db.runTx(tx, cached, fn)
	cq.prepareMissed(ctx)
	return err
}

// runTx runs fn in the begun transaction tx and commits it, or rolls it
// back when fn fails or panics. Once the connection is free, the caller
// prepares the statements the transaction missed in the cache (cq, which
// may be nil).
func (db *DB) runTx(tx *sql.Tx, cached bool, fn func(q Querier) error) (cq *cachedQuerier, err error) {
	defer func() {
		if p := recover(); p != nil {
			_ = tx.Rollback()
			panic(p)
		}
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	hooks := &commitHooks{}
	var q Querier = &rawQuerier{q: tx, d: db.D, hooks: hooks}
	if cached {
		cq = &cachedQuerier{cache: db.wc, tx: tx, q: tx, d: db.D, hooks: hooks}
		q = cq
	}
	if err = fn(q); err != nil {
		return nil, err
	}
	if err = tx.Commit(); err != nil {
		return nil, err
	}
	hooks.run()
	db.ckpt.wake()
	return cq, nil
}

// rawQuerier rewrites ? placeholders and runs queries unprepared.
type rawQuerier struct {
	q Querier
	d Dialect
	// hooks is the transaction's (nil outside DB.Tx)
	hooks *commitHooks
}

// commitHooks are what a transaction of DB.Tx runs once it has
// committed, in the order they were added.
type commitHooks struct{ fns []func() }

func (h *commitHooks) add(fn func()) { h.fns = append(h.fns, fn) }

func (h *commitHooks) run() {
	for _, fn := range h.fns {
		fn()
	}
}

// InTx reports whether q is a transaction of DB.Tx (whose commit runs
// the hooks of AfterCommit).
func InTx(q Querier) bool { return txHooks(q) != nil }

// AfterCommit runs fn once q's transaction (of DB.Tx) has committed,
// before the hooks added after it; q must be such a transaction (InTx).
func AfterCommit(q Querier, fn func()) { txHooks(q).add(fn) }

// Shared returns the value kept on db under key, made by init on first
// use: state of a package below the store that belongs to one open
// database (the event storage's series cache).
func (db *DB) Shared(key any, init func() any) any {
	if v, ok := db.shared.Load(key); ok {
		return v
	}
	v, _ := db.shared.LoadOrStore(key, init())
	return v
}

// txHooks returns the commit hooks of q's transaction, nil when q is not
// a transaction of DB.Tx.
func txHooks(q Querier) *commitHooks {
	switch q := q.(type) {
	case *rawQuerier:
		return q.hooks
	case *cachedQuerier:
		return q.hooks
	}
	return nil
}

func (r *rawQuerier) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return r.q.ExecContext(ctx, r.d.Rebind(query), args...)
}

func (r *rawQuerier) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return r.q.QueryContext(ctx, r.d.Rebind(query), args...)
}

func (r *rawQuerier) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return r.q.QueryRowContext(ctx, r.d.Rebind(query), args...)
}
