package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// OpenBeside opens a store for a short administrative write that may run
// while a server holds it (`trove credentials create`). It is Open, except
// that a SQLite store locked by another process is opened without its lock
// and without migrating: SQLite serialises the two processes' writes, and
// the server reads keys from the database on every login, so it sees the
// write at once. Such a store must already be at exactly this binary's
// schema; a store of another version is refused, since its server may
// migrate it or read it differently. shared tells whether the lock was
// held by another process.
func OpenBeside(ctx context.Context, dsn, dataDir string) (db *DB, shared bool, err error) {
	db, err = Open(ctx, dsn, dataDir)
	if err == nil || !errors.Is(err, ErrInUse) {
		return db, false, err
	}
	loc, lerr := Locate(dsn, dataDir)
	if lerr != nil {
		return nil, false, lerr
	}
	db, err = openSQLite(loc.Path)
	if err != nil {
		return nil, false, fmt.Errorf("open SQLite database %s: %w", loc.Path, err)
	}
	db.wc, db.rc = newStmtCache(db.w), newStmtCache(db.r)
	pctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := db.schemaIsCurrent(pctx); err != nil {
		db.Close()
		return nil, false, fmt.Errorf("database %s is held by a running Trove and %w", loc.Path, err)
	}
	return db, true, nil
}

// schemaIsCurrent says whether every migration of this binary, and no
// other, has been applied.
func (db *DB) schemaIsCurrent(ctx context.Context) error {
	ms, err := db.loadMigrations()
	if err != nil {
		return err
	}
	var newest, count int
	if err := db.r.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0), COUNT(*) FROM schema_migrations`).Scan(&newest, &count); err != nil {
		return fmt.Errorf("its schema cannot be read: %w", err)
	}
	want := ms[len(ms)-1].version
	if newest != want || count != len(ms) {
		return fmt.Errorf("its schema is at version %d (%d migrations), this binary's at %d (%d): run this command with the binary the server runs, or stop the server first", newest, count, want, len(ms))
	}
	return nil
}
