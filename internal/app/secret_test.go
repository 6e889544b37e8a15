package app_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/golang-jwt/jwt/v5"

	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/testenv"
)

// With --token-secret-file the tokens are signed with the file's secret
// and no secret is written into the database (one who reads the
// database cannot forge tokens); without any configured secret one is
// generated and stored, as before.
func TestTokenSecretFromFile(t *testing.T) {
	secretFile := filepath.Join(t.TempDir(), "token-secret")
	if err := os.WriteFile(secretFile, []byte("a-secret-kept-out-of-the-database\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		opt    testenv.Option
		stored bool
	}{
		{"from a file", func(cfg *config.Config) { cfg.TokenSecret, cfg.TokenSecretFile = "", secretFile }, false},
		{"generated", func(cfg *config.Config) { cfg.TokenSecret = "" }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			testenv.Each(t, func(t *testing.T, e *testenv.Env) {
				stored, err := e.App.DB.GetSetting(context.Background(), "token_secret")
				if err != nil {
					t.Fatal(err)
				}
				if (stored != "") != c.stored {
					t.Fatalf("token secret stored in the database: %q", stored)
				}
				key := []byte("a-secret-kept-out-of-the-database")
				if c.stored {
					key = []byte(stored)
				}
				if _, err := jwt.Parse(e.Token, func(*jwt.Token) (any, error) { return key, nil }); err != nil {
					t.Fatalf("the token is not signed with the expected secret: %v", err)
				}
				e.Call(t, "users.get_current_user", nil).OK(t)
			}, c.opt)
		})
	}
}
