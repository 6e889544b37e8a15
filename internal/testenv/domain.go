package testenv

import (
	"context"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// Clock is the fixed time of the environments EachDomain makes.
var Clock = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// EachDomain runs fn once per backend with a domain environment on a
// fresh store (no server), for package tests of the domain packages.
func EachDomain(t *testing.T, fn func(t *testing.T, env *domain.Env)) {
	for _, b := range Backends() {
		t.Run(b, func(t *testing.T) {
			dsn := ""
			if b == "postgres" {
				dsn = NewPostgresDB(t)
			}
			db, err := store.Open(context.Background(), dsn, t.TempDir())
			if err != nil {
				t.Fatalf("open store: %v", err)
			}
			t.Cleanup(func() { db.Close() })
			fn(t, &domain.Env{DB: db, Now: func() time.Time { return Clock }})
		})
	}
}

// WantError fails unless err is the API error code/subcode.
func WantError(t testing.TB, err error, code, subcode int) {
	t.Helper()
	ae := apierr.As(err)
	if ae == nil || ae.Code != code || ae.Subcode != subcode {
		t.Fatalf("want error %d/%d, got %v", code, subcode, err)
	}
}
