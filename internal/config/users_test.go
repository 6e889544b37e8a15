package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/auth"
)

func TestUsersSettings(t *testing.T) {
	cases := []struct {
		name, yaml string
		want       []auth.FixedUser
		err        string
	}{
		{name: "keys and logins", yaml: `
users:
  - name: alice
    access_key: ALICEKEY
    secret_key: alice-secret
  - name: Bob
    username: bob
    password: bob-pass
    role: admin
  - name: Carol
    username: carol
    password_hash: "$2a$10$abcdefghijklmnopqrstuu"
`, want: []auth.FixedUser{
			{Name: "alice", AccessKey: "ALICEKEY", SecretKey: "alice-secret"},
			{Name: "Bob", Username: "bob", Password: "bob-pass", Role: "admin"},
			{Name: "Carol", Username: "carol", PasswordHash: "$2a$10$abcdefghijklmnopqrstuu"},
		}},
		{name: "username twice", yaml: "users:\n  - {username: u, password: a}\n  - {username: u, password: b}\n", err: `username "u" is given twice`},
		{name: "access key twice", yaml: "users:\n  - {access_key: K, secret_key: a}\n  - {access_key: K, secret_key: b}\n", err: `access_key "K" is given twice`},
		{name: "unknown field", yaml: "users:\n  - {username: u, pasword: a}\n", err: "pasword"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			yml := filepath.Join(t.TempDir(), "trove.yaml")
			if err := os.WriteFile(yml, []byte(c.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			cfg, err := Load([]string{"--config", yml}, func(string) string { return "" })
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("want error %q, got %v", c.err, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(cfg.Users, c.want) {
				t.Fatalf("users %+v, want %+v", cfg.Users, c.want)
			}
		})
	}
}
