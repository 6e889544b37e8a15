package store

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"time"
)

//go:embed migrations
var migrationFS embed.FS

// migration is one forward-only schema step.
type migration struct {
	version int
	name    string
	sql     string
}

func (db *DB) loadMigrations() ([]migration, error) {
	dir := "migrations/" + db.D.Name()
	entries, err := fs.ReadDir(migrationFS, dir)
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".sql") {
			continue
		}
		num, _, _ := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if err != nil {
			return nil, fmt.Errorf("migration %s: name must start with a number", e.Name())
		}
		b, err := migrationFS.ReadFile(dir + "/" + e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: e.Name(), sql: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i := 1; i < len(out); i++ {
		if out[i].version == out[i-1].version {
			return nil, fmt.Errorf("migrations %s and %s share a version", out[i-1].name, out[i].name)
		}
	}
	return out, nil
}

// migrationsThrough is the last migration applied: every one, but tests
// stop earlier to fill a schema of the past (export_test.go).
var migrationsThrough = int(^uint(0) >> 1)

// ErrNewerStore is returned (wrapped) when the store holds migrations
// this binary does not know: it was written by a newer Trove.
var ErrNewerStore = errors.New("the store was written by a newer Trove")

// ErrEmptyStoreBesideFiles is returned (wrapped) when the store is new
// or empty but the data dir's file storage holds files.
var ErrEmptyStoreBesideFiles = errors.New("empty store beside stored files")

// storeVersions reads the versions applied to the store.
func (db *DB) storeVersions(ctx context.Context) (map[int]bool, int, error) {
	rows, err := db.w.QueryContext(ctx, `SELECT version FROM schema_migrations`)
	if err != nil {
		return nil, 0, fmt.Errorf("read schema_migrations: %w", err)
	}
	defer rows.Close()
	applied, newest := map[int]bool{}, 0
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return nil, 0, err
		}
		applied[v] = true
		newest = max(newest, v)
	}
	return applied, newest, rows.Err()
}

// checkVersions refuses a store holding a version this binary has no
// migration for: it was written by a newer binary, whose schema this one
// would serve wrongly.
func checkVersions(ms []migration, applied map[int]bool, storeNewest int) error {
	known := make(map[int]bool, len(ms))
	binNewest := 0
	for _, m := range ms {
		known[m.version] = true
		binNewest = max(binNewest, m.version)
	}
	var unknown []int
	for v := range applied {
		if !known[v] {
			unknown = append(unknown, v)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Ints(unknown)
	return fmt.Errorf("%w: its schema is at version %d and holds versions %v this binary does not know; "+
		"this binary's newest schema version is %d. Run the newer Trove binary that wrote it, "+
		"or restore the backup made before the upgrade into a new data dir (trove restore FILE)",
		ErrNewerStore, storeNewest, unknown, binNewest)
}

// migrate checks the store's schema versions, then applies the pending
// migrations, each in its own transaction, logging the run. On
// PostgreSQL an advisory lock keeps concurrent starts from racing.
func (db *DB) migrate(ctx context.Context, opts Options) error {
	ms, err := db.loadMigrations()
	if err != nil {
		return err
	}
	if _, err := db.w.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	applied, from, err := db.storeVersions(ctx)
	if err != nil {
		return err
	}
	if err := checkVersions(ms, applied, from); err != nil {
		return err
	}
	if len(applied) == 0 && !opts.AllowEmptyStore {
		if err := checkNoStoredFiles(opts.DataDir); err != nil {
			return err
		}
	}
	var pending []migration
	for _, m := range ms {
		if m.version <= migrationsThrough && !applied[m.version] {
			pending = append(pending, m)
		}
	}
	if len(pending) == 0 {
		return nil
	}
	log := opts.logger()
	to := pending[len(pending)-1].version
	log.Info("migrating store", "from", from, "to", to, "migrations", len(pending))
	start := time.Now()
	for _, m := range pending {
		stepStart := time.Now()
		ran, err := db.applyMigration(ctx, m)
		if err != nil {
			return err
		}
		if ran {
			log.Debug("migration applied", "migration", m.name, "duration", time.Since(stepStart).Round(time.Millisecond))
		}
	}
	log.Info("store migrated", "from", from, "to", to, "duration", time.Since(start).Round(time.Millisecond))
	return nil
}

// applyMigration runs m unless another process applied it meanwhile.
func (db *DB) applyMigration(ctx context.Context, m migration) (ran bool, err error) {
	// Migrations hold several statements: run them unprepared.
	err = db.txWith(ctx, false, func(q Querier) error {
		if lock := db.D.MigrationLock(); lock != "" {
			if _, err := q.ExecContext(ctx, lock); err != nil {
				return err
			}
		}
		var n int
		if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE version = ?`, m.version).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return nil
		}
		// Migration text goes to the driver verbatim: no placeholder
		// rewriting, so quotes and question marks in it are safe.
		if _, err := q.(*rawQuerier).q.ExecContext(ctx, m.sql); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
		ran = true
		_, err := q.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`, m.version, m.name, time.Now().UnixMilli())
		return err
	})
	return ran, err
}

// logger is opts.Log, or one that drops everything.
func (o Options) logger() *slog.Logger {
	if o.Log != nil {
		return o.Log
	}
	return slog.New(slog.DiscardHandler)
}

// NewestSQLiteVersion is the newest schema version this binary's SQLite
// migrations reach.
func NewestSQLiteVersion() int {
	ms, err := (&DB{D: sqliteDialect{}}).loadMigrations()
	if err != nil || len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].version
}
