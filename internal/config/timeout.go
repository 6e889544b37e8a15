package config

import (
	"flag"
	"fmt"
	"time"
)

// DefaultRequestTimeout is the server-side deadline of one API call.
const DefaultRequestTimeout = 60 * time.Second

type timeoutFlags struct {
	requestTimeout *time.Duration
}

func addTimeoutFlags(fs *flag.FlagSet) *timeoutFlags {
	return &timeoutFlags{
		requestTimeout: fs.Duration("request-timeout", 0, "deadline of one API call, e.g. 60s (default 60s; log downloads are exempt)"),
	}
}

// applyTimeoutEnv reads TROVE_REQUEST_TIMEOUT.
func applyTimeoutEnv(c *Config, getenv func(string) string) error {
	if v := getenv("TROVE_REQUEST_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return fmt.Errorf("TROVE_REQUEST_TIMEOUT: %w", err)
		}
		c.RequestTimeout = d
	}
	return nil
}

func (t *timeoutFlags) apply(c *Config) {
	if *t.requestTimeout != 0 {
		c.RequestTimeout = *t.requestTimeout
	}
}

func (c Config) validateTimeout() error {
	if c.RequestTimeout < time.Second {
		return fmt.Errorf("request_timeout must be at least 1s, got %s", c.RequestTimeout)
	}
	return nil
}
