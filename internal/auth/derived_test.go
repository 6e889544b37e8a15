package auth_test

import (
	"context"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/limits"
	"github.com/trove-ml/trove/internal/store"
)

// Failed logins past the allowance answer 429 before any lookup or bcrypt
// work; the key is free again once a token has come back.
func TestCheckKeyThrottlesFailures(t *testing.T) {
	eachBackend(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		c := onClock(env)
		putKey(t, env.DB, store.Company{ID: "acme-id", Name: "Acme"},
			store.User{ID: "u1", Company: "acme-id", Name: "alice", Role: auth.RoleUser}, "ALICEKEY", "alice-secret")
		s := auth.New(env, []byte("k"))
		work := auth.RecordComparisons(s)
		for i := 0; i < limits.LoginFailures; i++ {
			_, err := s.CheckKey(ctx, "ALICEKEY", "wrong", "10.0.0.1")
			wantAPIErr(t, err, 401, 22, invalidCredentials)
		}
		if n := len(work.Costs()); n != limits.LoginFailures {
			t.Fatalf("%d comparisons for %d failures", n, limits.LoginFailures)
		}
		_, err := s.CheckKey(ctx, "ALICEKEY", "alice-secret", "10.0.0.2")
		wantAPIErr(t, err, 429, 0, "Too many failed logins (try again in 1 s)")
		if n := len(work.Costs()); n != 0 {
			t.Fatalf("a refused login still did %d bcrypt comparisons", n)
		}
		c.advance(time.Second)
		if _, err := s.CheckKey(ctx, "ALICEKEY", "alice-secret", "10.0.0.2"); err != nil {
			t.Fatalf("after the refill: %v", err)
		}
	})
}

// issueFrom verifies tok and mints a token from it, as auth.login with
// Bearer does.
func issueFrom(t *testing.T, s *auth.Service, tok string, ttl time.Duration) (string, *auth.Identity) {
	t.Helper()
	parent, err := s.VerifyToken(context.Background(), tok)
	if err != nil {
		t.Fatal(err)
	}
	child, err := s.IssueToken(parent, ttl)
	if err != nil {
		t.Fatal(err)
	}
	id, err := s.VerifyToken(context.Background(), child)
	if err != nil {
		t.Fatal(err)
	}
	return child, id
}

func TestDerivedTokenExpiresWithItsParent(t *testing.T) {
	eachBackend(t, func(t *testing.T, env *domain.Env) {
		c := onClock(env)
		s := auth.New(env, []byte("k"))
		parent, err := s.IssueToken(alice, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		child, id := issueFrom(t, s, parent, auth.MaxExpiry)
		if want := c.now().Add(time.Hour).Unix(); id.ExpiresAt != want {
			t.Fatalf("child expires at %d, parent at %d", id.ExpiresAt, want)
		}
		_, shorter := issueFrom(t, s, parent, time.Minute)
		if want := c.now().Add(time.Minute).Unix(); shorter.ExpiresAt != want {
			t.Fatalf("a shorter lifetime is kept: %d, want %d", shorter.ExpiresAt, want)
		}
		_, unbounded := issueFrom(t, s, parent, 0)
		if want := c.now().Add(time.Hour).Unix(); unbounded.ExpiresAt != want {
			t.Fatalf("a child asking for no expiry gets %d, want the parent's %d", unbounded.ExpiresAt, want)
		}
		c.advance(time.Hour)
		_, err = s.VerifyToken(context.Background(), child)
		wantAPIErr(t, err, 401, 30, expired)
	})
}

func TestLogoutRevokesDerivedTokens(t *testing.T) {
	eachBackend(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		onClock(env)
		s := auth.New(env, []byte("k"))
		root, err := s.IssueToken(alice, 0)
		if err != nil {
			t.Fatal(err)
		}
		child, childID := issueFrom(t, s, root, time.Hour)
		sibling, _ := issueFrom(t, s, root, time.Hour)
		grandchild, _ := issueFrom(t, s, child, time.Hour)

		// Logging out of a derived token revokes it and what came from it,
		// not its parent or siblings.
		if err := s.Revoke(ctx, childID); err != nil {
			t.Fatal(err)
		}
		for name, tok := range map[string]string{"child": child, "grandchild": grandchild} {
			_, err := s.VerifyToken(ctx, tok)
			if err == nil {
				t.Fatalf("%s survives the child's logout", name)
			}
			wantAPIErr(t, err, 401, 30, "Invalid token (revoked token)")
		}
		for name, tok := range map[string]string{"root": root, "sibling": sibling} {
			if _, err := s.VerifyToken(ctx, tok); err != nil {
				t.Fatalf("%s was revoked by the child's logout: %v", name, err)
			}
		}

		// Logging out of the root revokes every token derived from it.
		rootID, err := s.VerifyToken(ctx, root)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Revoke(ctx, rootID); err != nil {
			t.Fatal(err)
		}
		_, err = s.VerifyToken(ctx, sibling)
		wantAPIErr(t, err, 401, 30, "Invalid token (revoked token)")
	})
}

// A second service on the same store (another Trove process) sees the
// revocation of an ancestor through the store.
func TestAncestorRevocationSeenThroughTheStore(t *testing.T) {
	eachBackend(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		onClock(env)
		s := auth.New(env, []byte("k"))
		other := auth.New(env, []byte("k"))
		root, err := s.IssueToken(alice, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		rootID, err := s.VerifyToken(ctx, root)
		if err != nil {
			t.Fatal(err)
		}
		child, _ := issueFrom(t, s, root, time.Hour)
		if err := s.Revoke(ctx, rootID); err != nil {
			t.Fatal(err)
		}
		_, err = other.VerifyToken(ctx, child)
		wantAPIErr(t, err, 401, 30, "Invalid token (revoked token)")
	})
}
