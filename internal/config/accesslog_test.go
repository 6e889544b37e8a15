package config

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestAccessLogSettings(t *testing.T) {
	dir := t.TempDir()
	yamlFile := filepath.Join(dir, "trove.yaml")
	if err := os.WriteFile(yamlFile, []byte("access_log: true\nslow_call: 250ms\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	checkLoad(t, []loadCase[AccessLog]{
		{name: "defaults", want: AccessLog{SlowCall: time.Second}},
		{name: "yaml", args: []string{"--config", yamlFile}, want: AccessLog{Enabled: true, SlowCall: 250 * time.Millisecond}},
		{name: "env over yaml", args: []string{"--config", yamlFile}, env: map[string]string{"TROVE_ACCESS_LOG": "false", "TROVE_SLOW_CALL": "2s"}, want: AccessLog{SlowCall: 2 * time.Second}},
		{name: "flags over env", args: []string{"--access-log", "--slow-call", "0"}, env: map[string]string{"TROVE_ACCESS_LOG": "false", "TROVE_SLOW_CALL": "2s"}, want: AccessLog{Enabled: true}},
		{name: "access log off by flag", args: []string{"--config", yamlFile, "--access-log=false"}, want: AccessLog{SlowCall: 250 * time.Millisecond}},
		{name: "bad env", env: map[string]string{"TROVE_ACCESS_LOG": "loud"}, err: "TROVE_ACCESS_LOG"},
		{name: "negative", env: map[string]string{"TROVE_SLOW_CALL": "-1s"}, err: "slow_call must not be negative"},
	}, func(c Config) AccessLog { return c.AccessLog })
	a := AccessLog{SlowCall: time.Second}
	if a.Info(time.Millisecond) || !a.Info(time.Second) || !(AccessLog{Enabled: true}).Info(0) || (AccessLog{}).Info(time.Hour) {
		t.Fatal("Info decides wrongly")
	}
}
