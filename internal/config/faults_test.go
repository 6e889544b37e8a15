package config

import (
	"os"
	"path/filepath"
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
	cases := []loadCase[Faults]{
		{name: "defaults", want: Faults{MinFreeMB: 512, DBWait: Duration(2 * time.Minute)}},
		{name: "yaml", args: []string{"--config", yml}, want: Faults{MinFreeMB: 64, DBWait: Duration(30 * time.Second)}},
		{name: "env over yaml", args: []string{"--config", yml}, env: map[string]string{"TROVE_MIN_FREE_MB": "0", "TROVE_DB_WAIT": "5m"}, want: Faults{MinFreeMB: 0, DBWait: Duration(5 * time.Minute)}},
		{name: "flags over env", args: []string{"--min-free-mb", "1024", "--db-wait", "0"}, env: map[string]string{"TROVE_MIN_FREE_MB": "8", "TROVE_DB_WAIT": "5m"}, want: Faults{MinFreeMB: 1024, DBWait: Duration(0)}},
		{name: "db wait in days", args: []string{"--db-wait", "1d"}, want: Faults{MinFreeMB: 512, DBWait: Duration(24 * time.Hour)}},
		{name: "env min free not a number", env: map[string]string{"TROVE_MIN_FREE_MB": "lots"}, err: "TROVE_MIN_FREE_MB"},
		{name: "env db wait not a duration", env: map[string]string{"TROVE_DB_WAIT": "soon"}, err: "TROVE_DB_WAIT"},
		{name: "negative min free", args: []string{"--min-free-mb", "-1"}, err: "min_free_mb must be 0 or more"},
		{name: "negative db wait", args: []string{"--db-wait", "-1s"}, err: "db_wait must be 0 or more"},
	}
	checkLoad(t, cases, func(c Config) Faults { return c.Faults })
}
