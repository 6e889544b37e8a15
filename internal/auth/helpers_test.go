package auth_test

import (
	"context"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// eachBackend runs fn on a fresh, migrated store of every test backend
// (SQLite always, PostgreSQL when TROVE_TEST_POSTGRES is set), in an
// environment on the real clock. The store holds alice, the user most
// tests issue tokens for (a token of a user not stored is refused).
func eachBackend(t *testing.T, fn func(t *testing.T, env *domain.Env)) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if err := db.EnsureCompany(ctx, store.Company{ID: alice.CompanyID, Name: alice.CompanyName}); err != nil {
			t.Fatal(err)
		}
		if err := db.UpsertUser(ctx, store.User{ID: alice.UserID, Company: alice.CompanyID, Name: alice.UserName, Role: alice.Role}); err != nil {
			t.Fatal(err)
		}
		fn(t, &domain.Env{DB: db, Now: time.Now})
	})
}

// clock is a settable time source; tokens carry whole seconds, so it
// starts on one.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

// onClock moves env to a test clock and returns the clock.
func onClock(env *domain.Env) *clock {
	c := &clock{t: time.Unix(1_800_000_000, 0)}
	env.Now = c.now
	return c
}

// wantAPIErr fails unless err is the catalogue error code/subcode with
// the given message.
func wantAPIErr(t *testing.T, err error, code, subcode int, msg string) {
	t.Helper()
	ae := apierr.As(err)
	if ae == nil {
		t.Fatalf("want %d/%d %q, got %v", code, subcode, msg, err)
	}
	if ae.Code != code || ae.Subcode != subcode || ae.Message() != msg {
		t.Fatalf("want %d/%d %q, got %d/%d %q", code, subcode, msg, ae.Code, ae.Subcode, ae.Message())
	}
}
