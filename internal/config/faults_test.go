package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFaultSettings: --min-free-mb and --db-wait with their defaults,
// the YAML keys, the environment and the flags in that precedence, and
// bad values refused naming the setting.
func TestFaultSettings(t *testing.T) {
	yml := filepath.Join(t.TempDir(), "trove.yaml")
	if err := os.WriteFile(yml, []byte("min_free_mb: 64\ndb_wait: 30s\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		args    []string
		env     map[string]string
		minFree int
		wait    time.Duration
		err     string
	}{
		{name: "defaults", minFree: 512, wait: 2 * time.Minute},
		{name: "yaml", args: []string{"--config", yml}, minFree: 64, wait: 30 * time.Second},
		{name: "env over yaml", args: []string{"--config", yml}, env: map[string]string{"TROVE_MIN_FREE_MB": "0", "TROVE_DB_WAIT": "5m"}, minFree: 0, wait: 5 * time.Minute},
		{name: "flags over env", args: []string{"--min-free-mb", "1024", "--db-wait", "0"}, env: map[string]string{"TROVE_MIN_FREE_MB": "8", "TROVE_DB_WAIT": "5m"}, minFree: 1024, wait: 0},
		{name: "db wait in days", args: []string{"--db-wait", "1d"}, minFree: 512, wait: 24 * time.Hour},
		{name: "env min free not a number", env: map[string]string{"TROVE_MIN_FREE_MB": "lots"}, err: "TROVE_MIN_FREE_MB"},
		{name: "env db wait not a duration", env: map[string]string{"TROVE_DB_WAIT": "soon"}, err: "TROVE_DB_WAIT"},
		{name: "negative min free", args: []string{"--min-free-mb", "-1"}, err: "min_free_mb must be 0 or more"},
		{name: "negative db wait", args: []string{"--db-wait", "-1s"}, err: "db_wait must be 0 or more"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := Load(c.args, func(k string) string { return c.env[k] })
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one naming %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.MinFreeMB != c.minFree || time.Duration(cfg.DBWait) != c.wait {
				t.Fatalf("min_free_mb %d, db_wait %s; want %d, %s", cfg.MinFreeMB, cfg.DBWait, c.minFree, c.wait)
			}
		})
	}
}
