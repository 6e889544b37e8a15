package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/testenv"
)

// TestMaintenanceCommands runs copy, backup and restore as the command
// line does, against a store a running server holds.
func TestMaintenanceCommands(t *testing.T) {
	ctx := context.Background()
	e := testenv.New(t, "sqlite")
	id := e.Call(t, "tasks.create", map[string]any{"name": "cmd", "type": "training"}).OK(t).Str("id")
	dir := e.App.Cfg.DataDir

	target := filepath.Join(t.TempDir(), "copy.db")
	if err := copyStore(ctx, []string{"--data-dir", dir, "--to", "sqlite://" + target}); err != nil {
		t.Fatalf("copy: %v", err)
	}
	if err := copyStore(ctx, []string{"--data-dir", dir, "--to", target}); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("second copy onto the same target: %v", err)
	}
	if err := copyStore(ctx, []string{"--data-dir", dir, "--to", "mysql://x/y"}); err == nil || !strings.Contains(err.Error(), `"mysql"`) {
		t.Fatalf("copy to mysql: %v", err)
	}
	if err := copyStore(ctx, []string{"--data-dir", dir}); err == nil || !strings.Contains(err.Error(), "--to") {
		t.Fatalf("copy without --to: %v", err)
	}

	archive := filepath.Join(t.TempDir(), "b.tgz")
	if err := backup(ctx, []string{"--data-dir", dir, archive}); err != nil {
		t.Fatalf("backup: %v", err)
	}
	restored := filepath.Join(t.TempDir(), "restored")
	if err := restore(ctx, []string{"--data-dir", restored, archive}); err != nil {
		t.Fatalf("restore: %v", err)
	}
	for _, d := range []struct{ db, dir string }{{target, t.TempDir()}, {"", restored}} {
		r := testenv.New(t, "sqlite", func(c *config.Config) { c.DB, c.DataDir = d.db, d.dir })
		if got := r.Call(t, "tasks.get_by_id", map[string]any{"task": id}).OK(t).Str("task.name"); got != "cmd" {
			t.Fatalf("store %q %q lacks the task: %q", d.db, d.dir, got)
		}
	}
}
