package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/store"
)

// trove backup --verify prints what it checked of a good archive and
// fails on a truncated one; trove restore of the truncated one fails and
// leaves no data dir, of the good one prints its checks.
func TestBackupVerifyAndRestoreCommands(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "data")
	db, err := store.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	stored := filepath.Join(dir, "files", "p", "task.1", "artifacts", "a.bin")
	if err := os.MkdirAll(filepath.Dir(stored), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stored, bytes.Repeat([]byte("x"), 20000), 0o600); err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(t.TempDir(), "b.tgz")
	var out bytes.Buffer
	if err := backupTo(ctx, []string{"--data-dir", dir, archive}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "1 files (20000 bytes), with a manifest") {
		t.Fatalf("backup output: %s", out.String())
	}

	out.Reset()
	if err := backupTo(ctx, []string{"--verify", archive}, &out); err != nil {
		t.Fatalf("verify of a good archive: %v", err)
	}
	for _, want := range []string{"verified " + archive, "schema version", "checked: gzip checksum", "checked: manifest: trove.db", "1 files (20000 bytes) present with matching sizes and SHA-256", "checked: database quick_check ok"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("verify output should hold %q:\n%s", want, out.String())
		}
	}

	raw, _ := os.ReadFile(archive)
	cut := filepath.Join(t.TempDir(), "cut.tgz")
	if err := os.WriteFile(cut, raw[:len(raw)*9/10], 0o600); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := backupTo(ctx, []string{"--verify", cut}, &out); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Fatalf("verify of a truncated archive: %v", err)
	}
	restored := filepath.Join(t.TempDir(), "restored")
	if err := restoreTo(ctx, []string{"--data-dir", restored, cut}, &out); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Fatalf("restore of a truncated archive: %v", err)
	}
	if _, err := os.Stat(restored); !os.IsNotExist(err) {
		t.Fatalf("a failed restore left %s (%v)", restored, err)
	}
	out.Reset()
	if err := restoreTo(ctx, []string{"--data-dir", restored, archive}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "restored "+archive+" into "+restored) || !strings.Contains(out.String(), "checked: the store opens") {
		t.Fatalf("restore output:\n%s", out.String())
	}
	if err := backupTo(ctx, []string{"--verify"}, &out); err == nil || !strings.Contains(err.Error(), "usage") {
		t.Fatalf("verify without FILE: %v", err)
	}
}
