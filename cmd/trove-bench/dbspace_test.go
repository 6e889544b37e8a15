package main

import (
	"context"
	"os"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// ServerPID names a live server process on PostgreSQL (benchmarks read
// the server's CPU from its process tree) and none on SQLite, which runs
// inside Trove.
func TestServerPID(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		pid, err := serverPID(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		if db.D.Name() == "sqlite" {
			if pid != 0 {
				t.Fatalf("SQLite: server pid %d, want 0", pid)
			}
			return
		}
		if pid <= 0 || pid == os.Getpid() {
			t.Fatalf("PostgreSQL: server pid %d", pid)
		}
	})
}
