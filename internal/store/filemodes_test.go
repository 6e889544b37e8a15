package store_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/trove-ml/trove/internal/store"
)

// wantMode fails unless path has mode want.
func wantMode(t *testing.T, path string, want fs.FileMode) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != want {
		t.Fatalf("%s has mode %04o, want %04o", path, st.Mode().Perm(), want)
	}
}

// The security issue's secrets at rest: trove.db was created 0644 with
// the token signing secret in it, so anyone on the host could forge a
// root token. A fresh data dir is now 0700 and the database, its -wal,
// -shm and lock files 0600, whatever the umask lets through.
func TestFreshDataDirAndDatabaseArePrivate(t *testing.T) {
	// with no umask, only the modes Trove asks for narrow the files
	defer syscall.Umask(syscall.Umask(0))
	data := filepath.Join(t.TempDir(), "data")
	db, err := store.Open(context.Background(), "", data)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// a write makes the -wal and -shm files exist
	if _, err := db.SetSettingIfAbsent(context.Background(), "k", "v"); err != nil {
		t.Fatal(err)
	}
	wantMode(t, data, 0o700)
	path := filepath.Join(data, "trove.db")
	for _, p := range []string{path, path + "-wal", path + "-shm", path + ".lock"} {
		wantMode(t, p, 0o600)
	}
	if len(db.Tightened) != 0 {
		t.Fatalf("nothing to narrow in a fresh data dir: %v", db.Tightened)
	}
}

// An existing data dir and database left open to other users are
// narrowed at the next start, and the narrowing is reported for the log.
func TestLooseDataDirAndDatabaseAreNarrowed(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	db, err := store.Open(context.Background(), "", data)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	path := filepath.Join(data, "trove.db")
	for p, m := range map[string]fs.FileMode{data: 0o755, path: 0o644, path + ".lock": 0o666} {
		if err := os.Chmod(p, m); err != nil {
			t.Fatal(err)
		}
	}
	db, err = store.Open(context.Background(), "", data)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	wantMode(t, data, 0o700)
	wantMode(t, path, 0o600)
	wantMode(t, path+".lock", 0o600)
	got := map[string]fs.FileMode{}
	for _, n := range db.Tightened {
		if n.Err != nil {
			t.Fatalf("%s", n)
		}
		got[n.Path] = n.Was
	}
	if len(got) != 3 || got[data] != 0o755 || got[path] != 0o644 || got[path+".lock"] != 0o666 {
		t.Fatalf("reported %v", db.Tightened)
	}
}

// A database named by --db outside a data dir is private too; its
// directory, the operator's, keeps its mode.
func TestDatabaseFileOutsideDataDirIsPrivate(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "elsewhere.db")
	db, err := store.Open(context.Background(), path, "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	wantMode(t, path, 0o600)
	wantMode(t, dir, 0o755)
}
