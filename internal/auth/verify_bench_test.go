package auth_test

import (
	"context"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// BenchmarkVerifyToken measures the check every token-authenticated call
// makes once the token is known (the SDK's steady state): signature from
// the cache, expiry, logout and the user's state from their caches.
func BenchmarkVerifyToken(b *testing.B) {
	ctx := context.Background()
	db, err := store.Open(ctx, "", b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if err := db.EnsureCompany(ctx, store.Company{ID: "c1", Name: "Acme"}); err != nil {
		b.Fatal(err)
	}
	if err := db.UpsertUser(ctx, store.User{ID: "u1", Company: "c1", Name: "alice", Role: auth.RoleUser}); err != nil {
		b.Fatal(err)
	}
	s := auth.New(&domain.Env{DB: db, Now: time.Now}, []byte("k"))
	tok, err := s.IssueToken(alice, time.Hour)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := s.VerifyToken(ctx, tok); err != nil {
				b.Fatal(err)
			}
		}
	})
}
