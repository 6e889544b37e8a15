// Package domaintest gives domain package tests a store on each test
// backend (SQLite always, PostgreSQL when TROVE_TEST_POSTGRES is set) and a
// domain environment on it with a clock that tests move, without the HTTP
// layer: it is built on storetest and links no api, rpc or app package
// (internal/domain's layering test checks it).
package domaintest

import (
	"context"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// Company and User exist in every environment of Each and New.
const (
	Company = "test-company"
	User    = "test-user"
)

// Fixed is the time the clock of EachEnv's environments stands at.
var Fixed = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// Env is a domain environment whose clock tests move (its Now returns
// Clock).
type Env struct {
	domain.Env
	Clock time.Time
}

// Advance moves the clock forward by d.
func (e *Env) Advance(d time.Duration) { e.Clock = e.Clock.Add(d) }

// Each runs fn as a subtest per backend, each with a fresh store holding
// Company and User; the backends run in parallel.
func Each(t *testing.T, fn func(t *testing.T, e *Env)) {
	storetest.Run(t, true, func(t *testing.T, backend string) { fn(t, New(t, backend)) })
}

// EachEnv runs fn as a subtest per backend with a domain environment on a
// bare fresh store (no company, no user) whose clock stands at Fixed; the
// backends run in parallel.
func EachEnv(t *testing.T, fn func(t *testing.T, env *domain.Env)) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fn(t, &domain.Env{DB: db, Now: func() time.Time { return Fixed }})
	})
}

// New opens a fresh store on backend ("sqlite" or "postgres") holding
// Company and User, with a clock starting at 2023-11-14 22:13:20 UTC.
func New(t testing.TB, backend string) *Env {
	t.Helper()
	db := storetest.Open(t, backend)
	ctx := context.Background()
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

// WantError fails unless err is the API error code/subcode.
func WantError(t testing.TB, err error, code, subcode int) {
	t.Helper()
	ae := apierr.As(err)
	if ae == nil || ae.Code != code || ae.Subcode != subcode {
		t.Fatalf("want error %d/%d, got %v", code, subcode, err)
	}
}
