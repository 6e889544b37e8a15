// Package storetest opens fresh stores for tests: SQLite in a temporary
// directory always, and PostgreSQL when TROVE_TEST_POSTGRES names a server
// (each store gets its own throwaway database).
package storetest

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/store"
)

// Backends lists the backends to test on.
func Backends() []string {
	b := []string{"sqlite"}
	if os.Getenv("TROVE_TEST_POSTGRES") != "" {
		b = append(b, "postgres")
	}
	return b
}

// Each runs fn once per backend as a subtest with a fresh, migrated store.
// The subtests run in parallel with each other (each has its own store);
// a test that changes process-wide settings uses EachSerial.
func Each(t *testing.T, fn func(t *testing.T, db *store.DB)) {
	Run(t, true, func(t *testing.T, backend string) { fn(t, Open(t, backend)) })
}

// EachSerial is Each with the backends one after the other, for tests that
// change process-wide settings (a test hook, a budget) while they run.
func EachSerial(t *testing.T, fn func(t *testing.T, db *store.DB)) {
	Run(t, false, func(t *testing.T, backend string) { fn(t, Open(t, backend)) })
}

// Run runs fn once per backend as a subtest named after it, in parallel
// with the other backends' subtests when parallel is set. Every harness
// (storetest, domaintest, testenv) runs its backends through it.
func Run(t *testing.T, parallel bool, fn func(t *testing.T, backend string)) {
	t.Helper()
	for _, b := range Backends() {
		t.Run(b, func(t *testing.T) {
			if parallel {
				t.Parallel()
			}
			fn(t, b)
		})
	}
}

// Open opens a fresh, migrated store on backend ("sqlite" or "postgres"),
// closed when the test ends.
func Open(t testing.TB, backend string) *store.DB {
	t.Helper()
	dsn := filepath.Join(t.TempDir(), "trove.db")
	if backend == "postgres" {
		dsn = NewPostgresDB(t)
	}
	db, err := store.Open(context.Background(), dsn, "")
	if err != nil {
		t.Fatalf("open %s store: %v", backend, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// NewPostgresDB creates a throwaway database, dropped when the test ends,
// and returns its URL.
func NewPostgresDB(t testing.TB) string {
	t.Helper()
	base := os.Getenv("TROVE_TEST_POSTGRES")
	if base == "" {
		t.Fatal("TROVE_TEST_POSTGRES is not set")
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatalf("postgres: %v", err)
	}
	defer admin.Close()
	name := fmt.Sprintf("trove_test_%d_%s", time.Now().UnixNano(), ids.New()[:8])
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() {
		a, err := sql.Open("pgx", base)
		if err != nil {
			return
		}
		defer a.Close()
		_, _ = a.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("bad TROVE_TEST_POSTGRES: %v", err)
	}
	u.Path = "/" + name
	return u.String()
}
