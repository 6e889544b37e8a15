package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

// serveErr runs serve on args and returns its start-up error (it must
// not start).
func serveErr(t *testing.T, args []string) error {
	t.Helper()
	var out, errs syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	err := serve(ctx, args, noEnv, &out, &errs)
	if err == nil {
		t.Fatalf("serve started:\n%s", errs.String())
	}
	return err
}

// trove serve refuses an empty store beside stored files unless
// --allow-empty-store, logs the migration run of the first start and
// none on the next, and refuses a store of a newer binary, naming both
// schema versions.
func TestServeStartupChecks(t *testing.T) {
	ctx := context.Background()
	free := "127.0.0.1:0"
	for _, backend := range testenv.Backends() {
		t.Run(backend, func(t *testing.T) {
			in := newInstance(t, backend)
			stored := filepath.Join(in.dir, "files", "company", "artifacts", "model.pt")
			if err := os.MkdirAll(filepath.Dir(stored), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(stored, []byte("weights"), 0o600); err != nil {
				t.Fatal(err)
			}
			err := serveErr(t, in.args(free, free, free))
			if !strings.Contains(err.Error(), "--allow-empty-store") || !strings.Contains(err.Error(), filepath.Join(in.dir, "files")) {
				t.Fatalf("empty store beside files: %v", err)
			}

			r := start(t, append(in.args(free, free, free), "--allow-empty-store"))
			r.stop()
			if !strings.Contains(r.stderr.String(), `msg="migrating store" from=0`) || !strings.Contains(r.stderr.String(), `msg="store migrated" from=0`) {
				t.Fatalf("first start did not log its migrations:\n%s", r.stderr.String())
			}

			r = start(t, in.args(free, free, free))
			r.stop()
			if strings.Contains(r.stderr.String(), "migrat") {
				t.Fatalf("an up-to-date store logged migrations:\n%s", r.stderr.String())
			}
			if backend == "sqlite" && !strings.Contains(r.stderr.String(), `msg="store integrity checked" mode=quick`) {
				t.Fatalf("no integrity check logged:\n%s", r.stderr.String())
			}

			db, err := store.Open(ctx, in.db, in.dir)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Write().ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, '9999_later.sql', 0)`); err != nil {
				t.Fatal(err)
			}
			db.Close()
			err = serveErr(t, in.args(free, free, free))
			if msg := err.Error(); !strings.Contains(msg, "version 9999") || !strings.Contains(msg, "newest schema version is") || !strings.Contains(msg, "newer Trove binary") {
				t.Fatalf("store of a newer binary: %v", err)
			}
		})
	}
}

// trove serve refuses a SQLite file with overwritten pages, saying how to
// restore, with the default quick check and the full one.
func TestServeRefusesDamagedSQLite(t *testing.T) {
	ctx := context.Background()
	free := "127.0.0.1:0"
	in := newInstance(t, "sqlite")
	path := filepath.Join(in.dir, "trove.db")
	db, err := store.Open(ctx, "", in.dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Write().ExecContext(ctx, `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM n WHERE i < 19999)
		INSERT INTO event_logs (task, ts, wts, iter, level, worker, msg)
		SELECT 'task' || (i % 50), i, i, i, 'info', 'w', 'line ' || i || ' ' || hex(randomblob(60)) FROM n`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	info, _ := f.Stat()
	const page = 4096
	junk := []byte(strings.Repeat("\x5a", page))
	for _, at := range []int64{info.Size() / page / 3, info.Size() / page / 2} {
		if _, err := f.WriteAt(junk, at*page); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	for _, mode := range []string{"", "--integrity-check=full"} {
		args := in.args(free, free, free)
		if mode != "" {
			args = append(args, mode)
		}
		err := serveErr(t, args)
		if msg := err.Error(); !strings.Contains(msg, "integrity check") || !strings.Contains(msg, "trove restore") || !strings.Contains(msg, path) {
			t.Fatalf("%s: damaged store: %v", mode, err)
		}
	}
}
