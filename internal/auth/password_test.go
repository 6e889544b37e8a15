package auth_test

import (
	"context"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/domain/domaintest"
)

// A configured login works through CheckKey (the login page's Basic
// username:password); it survives a new key pair for its user and ends
// when the configuration no longer gives it.
func TestPasswordLoginFollowsTheConfiguration(t *testing.T) {
	eachBackend(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		s := auth.New(env, []byte("secret"))
		gina := auth.FixedUser{Name: "gina", Username: "gina", Password: "gina-pass"}
		if _, err := auth.Bootstrap(ctx, env, "ADMINKEY", "admin-secret", []auth.FixedUser{gina}); err != nil {
			t.Fatal(err)
		}
		id, err := s.CheckKey(ctx, "gina", "gina-pass", "")
		if err != nil || id.UserName != "gina" || id.Role != auth.RoleUser {
			t.Fatalf("login: %+v %v", id, err)
		}
		if on, err := s.PasswordLoginEnabled(ctx); err != nil || !on {
			t.Fatalf("enabled: %v %v", on, err)
		}
		if _, err := auth.NewKey(ctx, env.DB, "gina"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.CheckKey(ctx, "gina", "gina-pass", ""); err != nil {
			t.Fatalf("after a new key pair: %v", err)
		}
		// Configured again without the login (a key pair only).
		gina = auth.FixedUser{ID: id.UserID, Name: "gina", AccessKey: "GINAKEY", SecretKey: "gina-secret"}
		if _, err := auth.Bootstrap(ctx, env, "ADMINKEY", "admin-secret", []auth.FixedUser{gina}); err != nil {
			t.Fatal(err)
		}
		_, err = s.CheckKey(ctx, "gina", "gina-pass", "")
		domaintest.WantError(t, err, 401, 22)
		if on, err := s.PasswordLoginEnabled(ctx); err != nil || on {
			t.Fatalf("still enabled: %v %v", on, err)
		}
		if _, err := s.CheckKey(ctx, "GINAKEY", "gina-secret", ""); err != nil {
			t.Fatalf("key pair: %v", err)
		}
	})
}
