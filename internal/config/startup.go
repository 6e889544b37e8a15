package config

import (
	"flag"
	"fmt"
	"strconv"
	"time"

	"github.com/trove-ml/trove/internal/store"
)

// Startup are the checks made of the store at start (store.OpenWith).
type Startup struct {
	// IntegrityCheck is the SQLite check at start: quick (PRAGMA
	// quick_check, the default), full (integrity_check) or off.
	IntegrityCheck string `yaml:"integrity_check"`
	// IntegrityTimeout bounds the check; a check that runs out of time
	// is logged and the start goes on (0 = no bound).
	IntegrityTimeout time.Duration `yaml:"integrity_timeout"`
	// AllowEmptyStore starts a new, empty store though files/ in the
	// data dir holds stored files (normally refused: the database that
	// described them is missing).
	AllowEmptyStore bool `yaml:"allow_empty_store"`
}

// DefaultIntegrityTimeout bounds the start-up check. Measured on a
// 10.2 GiB store (25 M log events, 88 M scalar points) on the 2-core
// test VM: quick_check took 6.5 s/GiB with the file in the page cache
// (66 s) and 43 s/GiB from a cold disk (7 min 15 s). 2 minutes covers a
// warm store of about 18 GiB or a cold one of about 2.8 GiB; past it the
// start goes on with a warning.
const DefaultIntegrityTimeout = 2 * time.Minute

type startupFlags struct {
	integrity  *string
	timeout    *time.Duration
	allowEmpty *bool
}

func addStartupFlags(fs *flag.FlagSet) *startupFlags {
	return &startupFlags{
		integrity:  fs.String("integrity-check", "", "SQLite check at start: quick (default), full or off; damage refuses the start"),
		timeout:    fs.Duration("integrity-timeout", 0, "bound of the start-up integrity check, e.g. 2m; past it the start goes on with a warning (0 = no bound; default 2m)"),
		allowEmpty: fs.Bool("allow-empty-store", false, "start a new, empty store even though files/ in the data dir holds stored files"),
	}
}

// applyStartupEnv reads TROVE_INTEGRITY_CHECK, TROVE_INTEGRITY_TIMEOUT and
// TROVE_ALLOW_EMPTY_STORE.
func applyStartupEnv(c *Startup, getenv func(string) string) error {
	if v := getenv("TROVE_INTEGRITY_CHECK"); v != "" {
		c.IntegrityCheck = v
	}
	if v := getenv("TROVE_INTEGRITY_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return fmt.Errorf("TROVE_INTEGRITY_TIMEOUT: %w", err)
		}
		c.IntegrityTimeout = d
	}
	if v := getenv("TROVE_ALLOW_EMPTY_STORE"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("TROVE_ALLOW_EMPTY_STORE: %w", err)
		}
		c.AllowEmptyStore = b
	}
	return nil
}

func (f *startupFlags) apply(fs *flag.FlagSet, c *Startup) {
	fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "integrity-check":
			c.IntegrityCheck = *f.integrity
		case "integrity-timeout":
			c.IntegrityTimeout = *f.timeout
		case "allow-empty-store":
			c.AllowEmptyStore = *f.allowEmpty
		}
	})
}

func (c Startup) validate() error {
	if err := store.ValidIntegrity(c.IntegrityCheck); err != nil {
		return err
	}
	if c.IntegrityTimeout < 0 {
		return fmt.Errorf("integrity_timeout must not be negative, got %s", c.IntegrityTimeout)
	}
	return nil
}

// StoreOptions are the store's start-up settings from c.
func (c Startup) StoreOptions() store.Options {
	return store.Options{Integrity: c.IntegrityCheck, IntegrityTimeout: c.IntegrityTimeout, AllowEmptyStore: c.AllowEmptyStore}
}
