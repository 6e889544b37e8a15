package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The start-up checks of a store, run by OpenWith before any migration:
// the integrity of a SQLite file, and that a new or empty store is not
// being started beside the files of an old one. The schema versions are
// checked by migrate.

// Integrity modes of the start-up check of a SQLite database.
const (
	IntegrityQuick = "quick" // PRAGMA quick_check: every page and B-tree, not index contents
	IntegrityFull  = "full"  // PRAGMA integrity_check: quick_check plus every index against its table
	IntegrityOff   = "off"
)

// ErrDamagedStore is returned (wrapped) when the integrity check of a
// SQLite database finds damage.
var ErrDamagedStore = errors.New("the database file is damaged")

// Options are the start-up settings of OpenWith.
type Options struct {
	// Log receives the migration and check lines (nil: none).
	Log *slog.Logger
	// Integrity is the SQLite start-up check: IntegrityQuick,
	// IntegrityFull, or IntegrityOff ("" = off, for tools and tests).
	Integrity string
	// IntegrityTimeout bounds the check (0 = no bound).
	IntegrityTimeout time.Duration
	// AllowEmptyStore starts a new, empty store even though the data
	// dir's file storage holds files.
	AllowEmptyStore bool
	// DataDir is the data dir whose files/ is looked at (set by OpenWith).
	DataDir string
}

// OpenWith is Open with start-up settings: the integrity check runs
// before the migrations, and a new store beside stored files is refused
// unless opts.AllowEmptyStore.
func OpenWith(ctx context.Context, dsn, dataDir string, opts Options) (*DB, error) {
	opts.DataDir = dataDir
	return open(ctx, dsn, opts)
}

// ValidIntegrity checks an integrity mode setting.
func ValidIntegrity(mode string) error {
	switch mode {
	case IntegrityQuick, IntegrityFull, IntegrityOff:
		return nil
	}
	return fmt.Errorf("integrity_check must be quick, full or off, got %q", mode)
}

// checkIntegrity runs the SQLite integrity check of opts on the writer,
// bounded by opts.IntegrityTimeout. Damage refuses the start; a check
// that runs out of time is logged and the start goes on.
func (db *DB) checkIntegrity(ctx context.Context, loc Location, opts Options) error {
	if db.IsPostgres() || opts.Integrity == "" || opts.Integrity == IntegrityOff {
		return nil
	}
	limit := opts.IntegrityTimeout
	log := opts.logger()
	start := time.Now()
	cctx, cancel := context.WithCancel(ctx)
	if limit > 0 {
		cctx, cancel = context.WithTimeout(ctx, limit)
	}
	defer cancel()
	problems, err := integrityProblems(cctx, db.w, opts.Integrity)
	took := time.Since(start).Round(time.Millisecond)
	if err != nil && cctx.Err() != nil && ctx.Err() == nil {
		log.Warn("store integrity check did not finish in time; starting without it",
			"mode", opts.Integrity, "limit", limit, "path", loc.Path,
			"hint", "raise --integrity-timeout (0 = no bound) to have the whole file checked at start")
		return nil
	}
	if err != nil {
		if isMalformed(err) {
			return damaged(loc.Path, []string{err.Error()})
		}
		return fmt.Errorf("integrity check of %s: %w", loc.Path, err)
	}
	if len(problems) > 0 {
		return damaged(loc.Path, problems)
	}
	log.Info("store integrity checked", "mode", opts.Integrity, "duration", took)
	return nil
}

// integrityProblems runs quick_check or integrity_check (at most 20
// messages) and returns what it found; none means the file is sound.
func integrityProblems(ctx context.Context, q Querier, mode string) ([]string, error) {
	pragma := "PRAGMA quick_check(20)"
	if mode == IntegrityFull {
		pragma = "PRAGMA integrity_check(20)"
	}
	rows, err := q.QueryContext(ctx, pragma)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		if s != "ok" {
			out = append(out, s)
		}
	}
	return out, rows.Err()
}

// CheckSQLiteFile runs the integrity check mode on the SQLite file at
// path, opened read-only, and says what is damaged.
func CheckSQLiteFile(ctx context.Context, path, mode string) error {
	db, err := openSQLiteReadOnly(path)
	if err != nil {
		return err
	}
	defer db.Close()
	problems, err := integrityProblems(ctx, db, mode)
	if err != nil {
		if isMalformed(err) {
			return damaged(path, []string{err.Error()})
		}
		return fmt.Errorf("integrity check of %s: %w", path, err)
	}
	if len(problems) > 0 {
		return damaged(path, problems)
	}
	return nil
}

func isMalformed(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "malformed") || strings.Contains(msg, "not a database") || strings.Contains(msg, "SQLITE_CORRUPT") || strings.Contains(msg, "SQLITE_NOTADB")
}

func damaged(path string, problems []string) error {
	if len(problems) > 5 {
		problems = append(problems[:5], fmt.Sprintf("and %d more", len(problems)-5))
	}
	return fmt.Errorf("%w: %s failed its integrity check (%s). Trove will not serve it: stop, move the data dir aside, "+
		"and restore the last good backup into a new data dir with `trove restore --data-dir DIR FILE`",
		ErrDamagedStore, path, strings.Join(problems, "; "))
}

// checkNoStoredFiles refuses to start a new store when the data dir's
// file storage (files/ under dataDir) holds files: the database that
// described them is missing or empty.
func checkNoStoredFiles(dataDir string) error {
	if dataDir == "" {
		return nil
	}
	dir := filepath.Join(dataDir, "files")
	found := ""
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		if d.Type().IsRegular() {
			found = p
			return fs.SkipAll
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("look at the stored files in %s: %w", dir, err)
	}
	if found == "" {
		return nil
	}
	return fmt.Errorf("%w: the database is new or empty but %s holds stored files (e.g. %s), "+
		"so the database that described them is missing or was emptied. Restore it from a backup "+
		"(trove restore into a new data dir), or start a new, empty store beside these files with --allow-empty-store",
		ErrEmptyStoreBesideFiles, dir, found)
}

// openSQLiteReadOnly opens the file at path for reading only.
func openSQLiteReadOnly(path string) (*sql.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("database file %s: %w", path, causeOf(err))
	}
	registerFunctions()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=query_only(1)")
	if err != nil {
		return nil, fmt.Errorf("open SQLite database %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// SQLiteSchemaVersion is the newest migration applied to the SQLite file
// at path (0 for a file without schema).
func SQLiteSchemaVersion(ctx context.Context, path string) (int, error) {
	db, err := openSQLiteReadOnly(path)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var n int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`).Scan(&n); err != nil || n == 0 {
		return 0, err
	}
	var v sql.NullInt64
	err = db.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&v)
	return int(v.Int64), err
}
