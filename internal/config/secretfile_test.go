package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTokenSecretFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("secret", "  s3cret-from-a-file\n")
	empty := write("empty", " \n")
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, c := range []struct {
		name   string
		args   []string
		env    map[string]string
		secret string
		err    string
	}{
		{name: "flag", args: []string{"--token-secret-file", good}, secret: "s3cret-from-a-file"},
		{name: "environment", env: map[string]string{"TROVE_TOKEN_SECRET_FILE": good}, secret: "s3cret-from-a-file"},
		{name: "secret in the environment", env: map[string]string{"TROVE_TOKEN_SECRET": "plain"}, secret: "plain"},
		{name: "neither", secret: ""},
		{name: "both", args: []string{"--token-secret-file", good}, env: map[string]string{"TROVE_TOKEN_SECRET": "plain"}, err: "not both"},
		{name: "empty file", args: []string{"--token-secret-file", empty}, err: "is empty"},
		{name: "missing file", args: []string{"--token-secret-file", filepath.Join(dir, "nope")}, err: "no such file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := Load(c.args, env(c.env))
			var secret string
			if err == nil {
				secret, err = cfg.SigningSecret()
			}
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("want an error with %q, got %v", c.err, err)
				}
				return
			}
			if err != nil || secret != c.secret {
				t.Fatalf("secret %q, %v; want %q", secret, err, c.secret)
			}
		})
	}
}
