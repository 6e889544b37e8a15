package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestAccessLogSettings(t *testing.T) {
	dir := t.TempDir()
	yamlFile := filepath.Join(dir, "trove.yaml")
	if err := os.WriteFile(yamlFile, []byte("access_log: true\nslow_call: 250ms\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		env  map[string]string
		want AccessLog
		err  string
	}{
		{name: "defaults", want: AccessLog{SlowCall: time.Second}},
		{name: "yaml", args: []string{"--config", yamlFile}, want: AccessLog{Enabled: true, SlowCall: 250 * time.Millisecond}},
		{name: "env over yaml", args: []string{"--config", yamlFile}, env: map[string]string{"TROVE_ACCESS_LOG": "false", "TROVE_SLOW_CALL": "2s"}, want: AccessLog{SlowCall: 2 * time.Second}},
		{name: "flags over env", args: []string{"--access-log", "--slow-call", "0"}, env: map[string]string{"TROVE_ACCESS_LOG": "false", "TROVE_SLOW_CALL": "2s"}, want: AccessLog{Enabled: true}},
		{name: "access log off by flag", args: []string{"--config", yamlFile, "--access-log=false"}, want: AccessLog{SlowCall: 250 * time.Millisecond}},
		{name: "bad env", env: map[string]string{"TROVE_ACCESS_LOG": "loud"}, err: "TROVE_ACCESS_LOG"},
		{name: "negative", env: map[string]string{"TROVE_SLOW_CALL": "-1s"}, err: "slow_call must not be negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := Load(tc.args, func(k string) string { return tc.env[k] })
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one naming %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.AccessLog != tc.want {
				t.Fatalf("access log %+v, want %+v", cfg.AccessLog, tc.want)
			}
		})
	}
	a := AccessLog{SlowCall: time.Second}
	if a.Info(time.Millisecond) || !a.Info(time.Second) || !(AccessLog{Enabled: true}).Info(0) || (AccessLog{}).Info(time.Hour) {
		t.Fatal("Info decides wrongly")
	}
}
