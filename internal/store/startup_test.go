package store_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// newStoreDSN is the DSN of a new, unopened store on backend, with its
// data dir.
func newStoreDSN(t *testing.T, backend string) (dsn, dataDir string) {
	dataDir = t.TempDir()
	if backend == "postgres" {
		return storetest.NewPostgresDB(t), dataDir
	}
	return filepath.Join(dataDir, "trove.db"), dataDir
}

func bufLogger(buf *bytes.Buffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// A store stamped by a migration this binary does not know (written by a
// newer Trove) is refused at start, naming both newest versions; the
// refusal changes nothing, so the newer binary still opens it.
func TestOpenRefusesStoreOfNewerBinary(t *testing.T) {
	ctx := context.Background()
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			dsn, dataDir := newStoreDSN(t, backend)
			db, err := store.Open(ctx, dsn, dataDir)
			if err != nil {
				t.Fatal(err)
			}
			var newest int
			if err := db.Read().QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&newest); err != nil {
				t.Fatal(err)
			}
			future := newest + 7
			if _, err := db.Write().ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, 0)`,
				future, fmt.Sprintf("%04d_from_the_future.sql", future)); err != nil {
				t.Fatal(err)
			}
			db.Close()
			var logs bytes.Buffer
			for _, mode := range []string{"", store.IntegrityQuick} {
				_, err = store.OpenWith(ctx, dsn, dataDir, store.Options{Log: bufLogger(&logs), Integrity: mode})
				if !errors.Is(err, store.ErrNewerStore) {
					t.Fatalf("integrity %q: open of a newer store: %v", mode, err)
				}
				msg := err.Error()
				for _, want := range []string{fmt.Sprintf("version %d", future), fmt.Sprintf("newest schema version is %d", newest), "newer Trove binary", "backup"} {
					if !strings.Contains(msg, want) {
						t.Errorf("error should say %q: %s", want, msg)
					}
				}
			}
			if strings.Contains(logs.String(), "migrat") {
				t.Fatalf("a refused store was migrated: %s", logs.String())
			}
		})
	}
}

// The first start logs the migration run (from, to, duration, and each
// step at debug level); a start on an up-to-date store logs nothing about
// migrating.
func TestOpenLogsMigrations(t *testing.T) {
	ctx := context.Background()
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			dsn, dataDir := newStoreDSN(t, backend)
			var first bytes.Buffer
			db, err := store.OpenWith(ctx, dsn, dataDir, store.Options{Log: bufLogger(&first)})
			if err != nil {
				t.Fatal(err)
			}
			var newest, count int
			if err := db.Read().QueryRowContext(ctx, `SELECT MAX(version), COUNT(*) FROM schema_migrations`).Scan(&newest, &count); err != nil {
				t.Fatal(err)
			}
			db.Close()
			out := first.String()
			for _, want := range []string{
				fmt.Sprintf(`msg="migrating store" from=0 to=%d migrations=%d`, newest, count),
				fmt.Sprintf(`msg="store migrated" from=0 to=%d duration=`, newest),
				`msg="migration applied" migration=0001_`,
			} {
				if !strings.Contains(out, want) {
					t.Errorf("first start should log %q:\n%s", want, out)
				}
			}
			if n := strings.Count(out, `msg="migration applied"`); n != count {
				t.Errorf("%d steps logged, %d applied", n, count)
			}
			var again bytes.Buffer
			db, err = store.OpenWith(ctx, dsn, dataDir, store.Options{Log: bufLogger(&again)})
			if err != nil {
				t.Fatal(err)
			}
			db.Close()
			if strings.Contains(again.String(), "migrat") {
				t.Fatalf("an up-to-date store logged migrations:\n%s", again.String())
			}
		})
	}
}

// A migration added to a store of an older schema is logged from the
// store's version to the binary's.
func TestOpenLogsUpgradeFromOlderSchema(t *testing.T) {
	ctx := context.Background()
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			dsn, dataDir := newStoreDSN(t, backend)
			restore := store.SetMigrationsThrough(100)
			db, err := store.Open(ctx, dsn, dataDir)
			restore()
			if err != nil {
				t.Fatal(err)
			}
			var before int
			if err := db.Read().QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations`).Scan(&before); err != nil {
				t.Fatal(err)
			}
			db.Close()
			var logs bytes.Buffer
			db, err = store.OpenWith(ctx, dsn, dataDir, store.Options{Log: bufLogger(&logs)})
			if err != nil {
				t.Fatal(err)
			}
			var newest, after int
			if err := db.Read().QueryRowContext(ctx, `SELECT MAX(version), COUNT(*) FROM schema_migrations`).Scan(&newest, &after); err != nil {
				t.Fatal(err)
			}
			db.Close()
			want := fmt.Sprintf(`msg="migrating store" from=100 to=%d migrations=%d`, newest, after-before)
			if !strings.Contains(logs.String(), want) {
				t.Fatalf("want %q in:\n%s", want, logs.String())
			}
		})
	}
}

// damagedStore builds a SQLite store with a few MiB of event logs, closes
// it and overwrites whole pages in the middle of the file.
func damagedStore(t *testing.T) (path, dataDir string) {
	ctx := context.Background()
	dataDir = t.TempDir()
	path = filepath.Join(dataDir, "trove.db")
	db, err := store.Open(ctx, path, dataDir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Write().ExecContext(ctx, `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM n WHERE i < 19999)
		INSERT INTO event_logs (task, ts, wts, iter, level, worker, msg)
		SELECT 'task' || (i % 50), i, i, i, 'info', 'w', 'line ' || i || ' ' || hex(randomblob(60)) FROM n`); err != nil {
		t.Fatal(err)
	}
	var pageSize int64
	if err := db.Read().QueryRowContext(ctx, `PRAGMA page_size`).Scan(&pageSize); err != nil {
		t.Fatal(err)
	}
	db.Close()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, _ := f.Stat()
	pages := info.Size() / pageSize
	if pages < 100 {
		t.Fatalf("the store has only %d pages", pages)
	}
	junk := bytes.Repeat([]byte{0xA5}, int(pageSize))
	for _, at := range []int64{pages * 4 / 10, pages/2 - 1, pages / 2, pages * 6 / 10} {
		if _, err := f.WriteAt(junk, at*pageSize); err != nil {
			t.Fatal(err)
		}
	}
	return path, dataDir
}

// A SQLite file with overwritten pages is refused at start by the quick
// and the full check, with the cause and how to restore; the check can be
// switched off.
func TestOpenRefusesDamagedSQLite(t *testing.T) {
	ctx := context.Background()
	path, dataDir := damagedStore(t)
	for _, mode := range []string{store.IntegrityQuick, store.IntegrityFull} {
		t.Run(mode, func(t *testing.T) {
			_, err := store.OpenWith(ctx, path, dataDir, store.Options{Integrity: mode})
			t.Logf("refusal: %v", err)
			if !errors.Is(err, store.ErrDamagedStore) {
				t.Fatalf("open of a damaged store: %v", err)
			}
			for _, want := range []string{path, "integrity check", "trove restore", "backup"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error should say %q: %v", want, err)
				}
			}
		})
	}
	t.Run("off", func(t *testing.T) {
		db, err := store.OpenWith(ctx, path, dataDir, store.Options{Integrity: store.IntegrityOff})
		if err != nil {
			t.Fatalf("with the check off the store opens (its damage is in event logs): %v", err)
		}
		db.Close()
	})
	if err := store.CheckSQLiteFile(ctx, path, store.IntegrityQuick); !errors.Is(err, store.ErrDamagedStore) {
		t.Fatalf("CheckSQLiteFile: %v", err)
	}
}

// A sound store passes the check and logs it; a check that runs out of
// its time is logged and the start goes on.
func TestOpenIntegrityCheckPassesAndIsBounded(t *testing.T) {
	ctx := context.Background()
	dataDir := t.TempDir()
	path := filepath.Join(dataDir, "trove.db")
	db, err := store.Open(ctx, path, dataDir)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	var logs bytes.Buffer
	db, err = store.OpenWith(ctx, path, dataDir, store.Options{Log: bufLogger(&logs), Integrity: store.IntegrityQuick})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if !strings.Contains(logs.String(), `msg="store integrity checked" mode=quick`) {
		t.Fatalf("no check logged:\n%s", logs.String())
	}
	if err := store.CheckSQLiteFile(ctx, path, store.IntegrityFull); err != nil {
		t.Fatal(err)
	}
	logs.Reset()
	// a limit already past when the check starts: it cannot finish
	db, err = store.OpenWith(ctx, path, dataDir, store.Options{Log: bufLogger(&logs), Integrity: store.IntegrityFull, IntegrityTimeout: 1})
	if err != nil {
		t.Fatalf("a check out of time should not refuse the start: %v", err)
	}
	db.Close()
	if !strings.Contains(logs.String(), "did not finish in time") {
		t.Fatalf("no warning logged:\n%s", logs.String())
	}
}

// A missing or empty database beside a populated files/ is refused
// unless AllowEmptyStore; an empty files/ is not in the way.
func TestOpenRefusesEmptyStoreBesideFiles(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name    string
		backend string
		prepare func(t *testing.T, dataDir string) string
	}{
		{"sqlite missing db", "sqlite", func(t *testing.T, dataDir string) string { return "" }},
		{"sqlite 0-byte db", "sqlite", func(t *testing.T, dataDir string) string {
			p := filepath.Join(dataDir, "trove.db")
			if err := os.WriteFile(p, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			return ""
		}},
		{"sqlite db elsewhere", "sqlite", func(t *testing.T, dataDir string) string { return filepath.Join(t.TempDir(), "other.db") }},
	}
	if len(storetest.Backends()) > 1 {
		cases = append(cases, struct {
			name    string
			backend string
			prepare func(t *testing.T, dataDir string) string
		}{"postgres empty database", "postgres", func(t *testing.T, dataDir string) string { return storetest.NewPostgresDB(t) }})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dataDir := t.TempDir()
			stored := filepath.Join(dataDir, "files", "company", "project", "artifact.bin")
			if err := os.MkdirAll(filepath.Dir(stored), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(stored, []byte("weights"), 0o600); err != nil {
				t.Fatal(err)
			}
			dsn := c.prepare(t, dataDir)
			_, err := store.OpenWith(ctx, dsn, dataDir, store.Options{Integrity: store.IntegrityQuick})
			if !errors.Is(err, store.ErrEmptyStoreBesideFiles) {
				t.Fatalf("open of an empty store beside files: %v", err)
			}
			for _, want := range []string{filepath.Join(dataDir, "files"), "--allow-empty-store", "restore"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error should say %q: %v", want, err)
				}
			}
			db, err := store.OpenWith(ctx, dsn, dataDir, store.Options{Integrity: store.IntegrityQuick, AllowEmptyStore: true})
			if err != nil {
				t.Fatalf("with AllowEmptyStore: %v", err)
			}
			db.Close()
			// once started, the store is no longer empty: no flag needed
			db, err = store.OpenWith(ctx, dsn, dataDir, store.Options{Integrity: store.IntegrityQuick})
			if err != nil {
				t.Fatalf("second start: %v", err)
			}
			db.Close()
		})
	}
	t.Run("empty files dir", func(t *testing.T) {
		dataDir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dataDir, "files", "company"), 0o700); err != nil {
			t.Fatal(err)
		}
		db, err := store.OpenWith(ctx, "", dataDir, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		db.Close()
	})
}
