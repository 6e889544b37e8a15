package projects_test

import (
	"context"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

// eachBackend runs fn with a fresh store on every test backend.
func eachBackend(t *testing.T, fn func(t *testing.T, env *domain.Env)) {
	for _, b := range testenv.Backends() {
		t.Run(b, func(t *testing.T) {
			dsn := ""
			if b == "postgres" {
				dsn = testenv.NewPostgresDB(t)
			}
			db, err := store.Open(context.Background(), dsn, t.TempDir())
			if err != nil {
				t.Fatalf("open store: %v", err)
			}
			t.Cleanup(func() { db.Close() })
			now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			fn(t, &domain.Env{DB: db, Now: func() time.Time { return now }})
		})
	}
}
