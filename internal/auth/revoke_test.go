package auth_test

import (
	"context"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/domain"
)

const revoked = "Invalid token (revoked token)"

func TestRevoke(t *testing.T) {
	eachBackend(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		c := onClock(env)
		// Two services on one database stand for two Trove processes.
		here, there := auth.New(env, []byte("k")), auth.New(env, []byte("k"))
		tok, _ := here.IssueToken(alice, time.Hour)
		keep, _ := here.IssueToken(alice, time.Hour)
		id, err := here.VerifyToken(ctx, tok)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := there.VerifyToken(ctx, tok); err != nil {
			t.Fatal(err)
		}

		if err := here.Revoke(ctx, id); err != nil {
			t.Fatal(err)
		}
		_, err = here.VerifyToken(ctx, tok)
		wantAPIErr(t, err, 401, 30, revoked)
		if _, err := here.VerifyToken(ctx, keep); err != nil {
			t.Fatalf("logout revoked another session: %v", err)
		}

		// The other process trusts its "not revoked" answer for a while,
		// then asks the store again.
		if _, err := there.VerifyToken(ctx, tok); err != nil {
			t.Fatalf("within the cache time the other process still accepts: %v", err)
		}
		c.advance(auth.RevocationTTL + time.Second)
		_, err = there.VerifyToken(ctx, tok)
		wantAPIErr(t, err, 401, 30, revoked)

		// A process started after the logout refuses at once.
		late := auth.New(env, []byte("k"))
		_, err = late.VerifyToken(ctx, tok)
		wantAPIErr(t, err, 401, 30, revoked)
	})
}

func TestRevokeWithoutSession(t *testing.T) {
	eachBackend(t, func(t *testing.T, env *domain.Env) {
		// Key-authenticated calls have no session: logout is a no-op.
		s := auth.New(env, []byte("k"))
		if err := s.Revoke(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		if err := s.Revoke(context.Background(), &auth.Identity{UserID: "u1"}); err != nil {
			t.Fatal(err)
		}
	})
}

func TestRevokeTwice(t *testing.T) {
	eachBackend(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		s := auth.New(env, []byte("k"))
		tok, _ := s.IssueToken(alice, 0)
		id, err := s.VerifyToken(ctx, tok)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2; i++ {
			if err := s.Revoke(ctx, id); err != nil {
				t.Fatalf("logout %d: %v", i+1, err)
			}
		}
		_, err = s.VerifyToken(ctx, tok)
		wantAPIErr(t, err, 401, 30, revoked)
	})
}
