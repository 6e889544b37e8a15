package config

import (
	"log/slog"
	"strings"
	"testing"
)

func TestLogLevel(t *testing.T) {
	env := func(level string) func(string) string {
		return func(k string) string {
			if k == "TROVE_LOG_LEVEL" {
				return level
			}
			return ""
		}
	}
	for _, tc := range []struct {
		in   string
		want slog.Level
	}{{"debug", slog.LevelDebug}, {"INFO", slog.LevelInfo}, {"warn", slog.LevelWarn}, {"error", slog.LevelError}} {
		cfg, err := Load(nil, env(tc.in))
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if got, _ := cfg.SlogLevel(); got != tc.want {
			t.Fatalf("%s: level %v, want %v", tc.in, got, tc.want)
		}
	}
	_, err := Load(nil, env("loud"))
	if err == nil || !strings.Contains(err.Error(), "log_level") || !strings.Contains(err.Error(), `"loud"`) {
		t.Fatalf("bad level: %v", err)
	}
}
