package store_test

import (
	"context"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

// TestReady: a migrated database is ready; one missing a migration, or
// closed, is not.
func TestReady(t *testing.T) {
	for _, backend := range testenv.Backends() {
		t.Run(backend, func(t *testing.T) {
			dsn := ""
			if backend == "postgres" {
				dsn = testenv.NewPostgresDB(t)
			}
			ctx := context.Background()
			db, err := store.Open(ctx, dsn, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if err := db.Ready(ctx); err != nil {
				t.Fatalf("fresh database not ready: %v", err)
			}
			if len(db.PoolStats()) == 0 {
				t.Fatal("no pool stats")
			}
			if _, err := db.Write().ExecContext(ctx, `DELETE FROM schema_migrations WHERE version = (SELECT MAX(version) FROM schema_migrations)`); err != nil {
				t.Fatal(err)
			}
			if err := db.Ready(ctx); err == nil || !strings.Contains(err.Error(), "migrations applied") {
				t.Fatalf("database missing a migration: %v", err)
			}
			db.Close()
			if err := db.Ready(ctx); err == nil || !strings.Contains(err.Error(), "unreachable") {
				t.Fatalf("closed database: %v", err)
			}
		})
	}
}
