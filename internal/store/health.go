package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Ready checks that both connection pools answer and that every embedded
// migration has been applied (a node that started against a database
// another version migrated, or whose migration failed, is not ready).
func (db *DB) Ready(ctx context.Context) error {
	if err := db.w.PingContext(ctx); err != nil {
		return fmt.Errorf("database unreachable: %w", err)
	}
	if db.r != db.w {
		if err := db.r.PingContext(ctx); err != nil {
			return fmt.Errorf("database unreachable (read pool): %w", err)
		}
	}
	ms, err := db.loadMigrations()
	if err != nil {
		return err
	}
	var applied int
	if err := db.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations`).Scan(&applied); err != nil {
		return fmt.Errorf("read schema_migrations: %w", err)
	}
	if applied < len(ms) {
		return fmt.Errorf("%d of %d migrations applied", applied, len(ms))
	}
	return nil
}

// PoolStat is the state of one connection pool.
type PoolStat struct {
	// Pool is "write" or "read" (one pool on PostgreSQL: "write").
	Pool string
	sql.DBStats
}

// PoolStats reports the connection pools.
func (db *DB) PoolStats() []PoolStat {
	out := []PoolStat{{Pool: "write", DBStats: db.w.Stats()}}
	if db.r != db.w {
		out = append(out, PoolStat{Pool: "read", DBStats: db.r.Stats()})
	}
	return out
}

// ObserveTx makes fn see the duration and outcome of every Tx (metrics).
// Set it before serving.
func (db *DB) ObserveTx(fn func(d time.Duration, err error)) { db.txObserver = fn }

// SQLitePath is the SQLite database file, or "" on PostgreSQL (readiness
// checks the free space of its filesystem).
func (db *DB) SQLitePath() string { return db.sqlitePath }
