package config

import (
	"os"
	"path/filepath"
	"testing"
)

func TestEventQueueSetting(t *testing.T) {
	dir := t.TempDir()
	yml := filepath.Join(dir, "trove.yaml")
	if err := os.WriteFile(yml, []byte("event_queue_mb: 64\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.yaml")
	if err := os.WriteFile(zero, []byte("event_queue_mb: 0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []loadCase[int]{
		{name: "default", want: 512},
		{name: "yaml", args: []string{"--config", yml}, want: 64},
		{name: "env over yaml", args: []string{"--config", yml}, env: map[string]string{"TROVE_EVENT_QUEUE_MB": "128"}, want: 128},
		{name: "flag over env", args: []string{"--event-queue-mb", "2048"}, env: map[string]string{"TROVE_EVENT_QUEUE_MB": "128"}, want: 2048},
		{name: "env not a number", env: map[string]string{"TROVE_EVENT_QUEUE_MB": "lots"}, err: "TROVE_EVENT_QUEUE_MB"},
		{name: "yaml zero", args: []string{"--config", zero}, err: "event_queue_mb must be at least 1"},
		{name: "env negative", env: map[string]string{"TROVE_EVENT_QUEUE_MB": "-5"}, err: "event_queue_mb must be at least 1"},
	}
	checkLoad(t, cases, func(c Config) int { return c.EventQueueMB })
}
