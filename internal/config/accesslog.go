package config

import (
	"flag"
	"fmt"
	"strconv"
	"time"
)

// DefaultSlowCall is the duration from which a call is logged at info
// even without the access log.
const DefaultSlowCall = time.Second

// AccessLog decides which finished requests are logged at info: every one
// when Enabled, otherwise those slower than SlowCall (0: none). The rest
// go to debug, so `--log-level debug` shows them too; failures are logged
// as errors whatever this says.
type AccessLog struct {
	Enabled  bool          `yaml:"access_log"`
	SlowCall time.Duration `yaml:"slow_call"`
}

type accessLogFlags struct {
	enabled  *bool
	slowCall *time.Duration
}

func addAccessLogFlags(fs *flag.FlagSet) *accessLogFlags {
	return &accessLogFlags{
		enabled:  fs.Bool("access-log", false, "log every API and file request at info (default: only slow ones; all of them at --log-level debug)"),
		slowCall: fs.Duration("slow-call", -1, "log requests slower than this at info, e.g. 1s (default 1s; 0 turns it off)"),
	}
}

// applyAccessLogEnv reads TROVE_ACCESS_LOG and TROVE_SLOW_CALL.
func applyAccessLogEnv(a *AccessLog, getenv func(string) string) error {
	if v := getenv("TROVE_ACCESS_LOG"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("TROVE_ACCESS_LOG: %w", err)
		}
		a.Enabled = b
	}
	if v := getenv("TROVE_SLOW_CALL"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return fmt.Errorf("TROVE_SLOW_CALL: %w", err)
		}
		a.SlowCall = d
	}
	return nil
}

func (f *accessLogFlags) apply(fs *flag.FlagSet, a *AccessLog) {
	fs.Visit(func(fl *flag.Flag) {
		if fl.Name == "access-log" {
			a.Enabled = *f.enabled
		}
	})
	if *f.slowCall >= 0 {
		a.SlowCall = *f.slowCall
	}
}

func (a AccessLog) validate() error {
	if a.SlowCall < 0 {
		return fmt.Errorf("slow_call must not be negative, got %s", a.SlowCall)
	}
	return nil
}

// Info tells whether a request that took d is logged at info.
func (a AccessLog) Info(d time.Duration) bool {
	return a.Enabled || (a.SlowCall > 0 && d >= a.SlowCall)
}
