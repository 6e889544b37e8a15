package config

import (
	"flag"
	"fmt"
	"strconv"
	"time"
)

// Faults are the settings of store faults: how much free space the data
// directory's filesystem needs for /readyz to say ready, and how long a
// start waits for an unreachable database.
type Faults struct {
	// MinFreeMB: below this many free megabytes on the data directory's
	// filesystem, /readyz answers 503 (0 turns the check off).
	MinFreeMB int `yaml:"min_free_mb"`
	// DBWait bounds how long a start retries a database it cannot reach
	// (0 = fail at once).
	DBWait Duration `yaml:"db_wait"`
}

// Defaults of the fault settings.
const (
	DefaultMinFreeMB = 512
	DefaultDBWait    = Duration(2 * time.Minute)
)

type faultFlags struct {
	minFree *int
	dbWait  Duration
}

func addFaultFlags(fs *flag.FlagSet) *faultFlags {
	f := &faultFlags{minFree: fs.Int("min-free-mb", 0, "free megabytes the data directory's filesystem needs for /readyz to say ready; 0 turns the check off (default 512)")}
	fs.Var(&f.dbWait, "db-wait", "how long a start retries an unreachable database, with backoff, before it fails, e.g. 2m; 0 fails at once (default 2m)")
	return f
}

func (f *faultFlags) apply(fs *flag.FlagSet, c *Faults) {
	fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "min-free-mb":
			c.MinFreeMB = *f.minFree
		case "db-wait":
			c.DBWait = f.dbWait
		}
	})
}

// applyFaultEnv reads TROVE_MIN_FREE_MB and TROVE_DB_WAIT.
func applyFaultEnv(c *Faults, getenv func(string) string) error {
	if v := getenv("TROVE_MIN_FREE_MB"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("TROVE_MIN_FREE_MB: %w", err)
		}
		c.MinFreeMB = n
	}
	if v := getenv("TROVE_DB_WAIT"); v != "" {
		d, err := ParseDuration(v)
		if err != nil {
			return fmt.Errorf("TROVE_DB_WAIT: %w", err)
		}
		c.DBWait = d
	}
	return nil
}

func (c Faults) validate() error {
	if c.MinFreeMB < 0 {
		return fmt.Errorf("min_free_mb must be 0 or more")
	}
	if c.DBWait < 0 {
		return fmt.Errorf("db_wait must be 0 or more")
	}
	return nil
}
