package auth_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/limits"
	"github.com/trove-ml/trove/internal/store"
)

// A busy host sending a key and secret on every call (MLflow's client)
// is not throttled for its many calls at once once that secret has
// matched; a key held by failed logins is still held, whatever the
// secret, until a token comes back.
func TestVerifiedSecretPassesTheThrottle(t *testing.T) {
	eachBackend(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		clock := onClock(env)
		putKey(t, env.DB, store.Company{ID: "acme-id", Name: "Acme"},
			store.User{ID: "u1", Company: "acme-id", Name: "alice", Role: auth.RoleUser}, "ALICEKEY", "alice-secret")
		s := auth.New(env, []byte("k"))
		if _, err := s.CheckKey(ctx, "ALICEKEY", "alice-secret", "10.0.0.1"); err != nil {
			t.Fatal(err)
		}
		const calls = 10 * limits.LoginFailures
		errs := make(chan error, calls)
		var wg sync.WaitGroup
		for range calls {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := s.CheckKey(ctx, "ALICEKEY", "alice-secret", "10.0.0.1")
				errs <- err
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("a verified secret at once with %d others: %v", calls-1, err)
			}
		}
		for range limits.LoginFailures {
			_, err := s.CheckKey(ctx, "ALICEKEY", "wrong", "10.0.0.9")
			wantAPIErr(t, err, 401, 22, invalidCredentials)
		}
		_, err := s.CheckKey(ctx, "ALICEKEY", "wrong", "10.0.0.9")
		wantAPIErr(t, err, 429, 0, "Too many failed logins (try again in 1 s)")
		_, err = s.CheckKey(ctx, "ALICEKEY", "alice-secret", "10.0.0.1")
		wantAPIErr(t, err, 429, 0, "Too many failed logins (try again in 1 s)")
		clock.advance(time.Second)
		if _, err := s.CheckKey(ctx, "ALICEKEY", "alice-secret", "10.0.0.1"); err != nil {
			t.Fatalf("the verified secret once a token came back: %v", err)
		}
	})
}
