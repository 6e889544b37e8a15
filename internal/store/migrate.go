package store

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
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

// migrate applies pending migrations, each in its own transaction. On
// PostgreSQL an advisory lock keeps concurrent starts from racing.
func (db *DB) migrate(ctx context.Context) error {
	ms, err := db.loadMigrations()
	if err != nil {
		return err
	}
	if _, err := db.w.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	for _, m := range ms {
		if m.version > migrationsThrough {
			break
		}
		// Migrations hold several statements: run them unprepared.
		err := db.txWith(ctx, false, func(q Querier) error {
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
			_, err := q.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`, m.version, m.name, time.Now().UnixMilli())
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}
