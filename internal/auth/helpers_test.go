package auth_test

import (
	"context"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

// eachBackend runs fn on a fresh, migrated store of every test backend
// (SQLite always, PostgreSQL when TROVE_TEST_POSTGRES is set).
func eachBackend(t *testing.T, fn func(t *testing.T, db *store.DB)) {
	for _, b := range testenv.Backends() {
		t.Run(b, func(t *testing.T) {
			dsn := ""
			if b == "postgres" {
				dsn = testenv.NewPostgresDB(t)
			}
			db, err := store.Open(context.Background(), dsn, t.TempDir())
			if err != nil {
				t.Fatalf("open %s store: %v", b, err)
			}
			t.Cleanup(func() { _ = db.Close() })
			fn(t, db)
		})
	}
}

// clock is a settable time source; tokens carry whole seconds, so it
// starts on one.
type clock struct{ t time.Time }

func newClock() *clock                   { return &clock{t: time.Unix(1_800_000_000, 0)} }
func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

// clockedService is a service signing with "k" that reads the time from c.
func clockedService(db *store.DB, c *clock) *auth.Service {
	s := auth.New(db, []byte("k"))
	auth.SetClock(s, c.now)
	return s
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
