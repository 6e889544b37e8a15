package transfer_test

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
	"github.com/trove-ml/trove/internal/transfer"
)

// A backup holds the database, with the token signing secret and the key
// hashes: the archive is 0600, its members say 0600, and a restore makes
// a 0700 data dir and a 0600 database, whatever the umask lets through.
// (Backups are of SQLite stores; PostgreSQL's go through pg_dump.)
func TestBackupAndRestoreArePrivate(t *testing.T) {
	defer syscall.Umask(syscall.Umask(0))
	e := testenv.New(t, "sqlite")
	e.Call(t, "projects.create", obj{"name": "private project", "description": ""}).OK(t)
	archive := filepath.Join(t.TempDir(), "backup.tgz")
	loc, _ := store.Locate(e.App.Cfg.DB, e.App.Cfg.DataDir)
	if _, err := transfer.Backup(context.Background(), loc, e.App.Cfg.DataDir, archive); err != nil {
		t.Fatal(err)
	}
	wantMode(t, archive, 0o600)
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	members := 0
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		members++
		if hdr.Mode != 0o600 {
			t.Fatalf("member %s has mode %04o", hdr.Name, hdr.Mode)
		}
	}
	if members == 0 {
		t.Fatal("empty archive")
	}

	restored := filepath.Join(t.TempDir(), "restored")
	rloc, _ := store.Locate("", restored)
	if _, err := transfer.Restore(context.Background(), archive, rloc, restored); err != nil {
		t.Fatal(err)
	}
	wantMode(t, restored, 0o700)
	wantMode(t, rloc.Path, 0o600)
}

func wantMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != want {
		t.Fatalf("%s has mode %04o, want %04o", path, st.Mode().Perm(), want)
	}
}
