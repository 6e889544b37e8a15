// Package domaintest gives domain package tests a store on each test
// backend (SQLite always, PostgreSQL when TROVE_TEST_POSTGRES is set), with
// a company, a user and a settable clock, without the HTTP layer.
package domaintest

import (
	"context"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

// Company and User exist in every environment.
const (
	Company = "test-company"
	User    = "test-user"
)

// Env is a domain environment whose clock tests move.
type Env struct {
	domain.Env
	Clock time.Time
}

// Each runs fn as a subtest per backend, each with a fresh store.
func Each(t *testing.T, fn func(t *testing.T, e *Env)) {
	for _, b := range testenv.Backends() {
		t.Run(b, func(t *testing.T) { fn(t, New(t, b)) })
	}
}

// New opens a fresh store on backend ("sqlite" or "postgres").
func New(t testing.TB, backend string) *Env {
	t.Helper()
	dsn := ""
	if backend == "postgres" {
		dsn = testenv.NewPostgresDB(t)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, dsn, t.TempDir())
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.EnsureCompany(ctx, store.Company{ID: Company, Name: "Test Company"}); err != nil {
		t.Fatal(err)
	}
	if err := db.UpsertUser(ctx, store.User{ID: User, Company: Company, Name: "Test User", Role: "admin"}); err != nil {
		t.Fatal(err)
	}
	e := &Env{Clock: time.UnixMilli(1_700_000_000_000).UTC()}
	e.Env = domain.Env{DB: db, Now: func() time.Time { return e.Clock }}
	return e
}
