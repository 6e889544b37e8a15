package store_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/trove-ml/trove/internal/store"
)

// lockHolderEnv makes the test binary a helper process that opens the
// store named by its value, says "open", and holds it until stdin closes.
const lockHolderEnv = "TROVE_TEST_HOLD_STORE"

func TestMain(m *testing.M) {
	if dir := os.Getenv(lockHolderEnv); dir != "" {
		db, err := store.Open(context.Background(), "", dir)
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("open")
		_, _ = io.Copy(io.Discard, os.Stdin)
		db.Close()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestOpenRefusesLockedDataDir(t *testing.T) {
	dir := t.TempDir()
	holder := exec.Command(os.Args[0], "-test.run=^$")
	holder.Env = append(os.Environ(), lockHolderEnv+"="+dir)
	stdin, _ := holder.StdinPipe()
	stdout, _ := holder.StdoutPipe()
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		_ = holder.Wait()
	}()
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if strings.TrimSpace(line) != "open" {
		t.Fatalf("helper: %q", line)
	}
	_, err := store.Open(context.Background(), "", dir)
	if err == nil {
		t.Fatal("a second open of a held data dir succeeded")
	}
	pid := fmt.Sprintf("process %d", holder.Process.Pid)
	if msg := err.Error(); !strings.Contains(msg, pid) || !strings.Contains(msg, dir) {
		t.Fatalf("error should name the data dir and %s: %v", pid, err)
	}
	stdin.Close()
	_ = holder.Wait()
	db, err := store.Open(context.Background(), "", dir)
	if err != nil {
		t.Fatalf("open after the holder exited: %v", err)
	}
	db.Close()
}

func TestOpenRefusesUnknownScheme(t *testing.T) {
	for _, dsn := range []string{"mysql://root:hunter2@db/trove", "sqlserver://x", "redis://localhost:6379"} {
		_, err := store.Open(context.Background(), dsn, t.TempDir())
		if err == nil {
			t.Fatalf("%s opened", dsn)
		}
		scheme, _, _ := strings.Cut(dsn, "://")
		msg := err.Error()
		if !strings.Contains(msg, `"`+scheme+`"`) || !strings.Contains(msg, "postgres://") || !strings.Contains(msg, "sqlite://") || strings.Contains(msg, "hunter2") {
			t.Fatalf("%s: unclear error: %v", dsn, err)
		}
	}
	// Accepted forms still open.
	for _, dsn := range []string{"sqlite://" + filepath.Join(t.TempDir(), "a.db"), filepath.Join(t.TempDir(), "b.db")} {
		db, err := store.Open(context.Background(), dsn, "")
		if err != nil {
			t.Fatalf("%s: %v", dsn, err)
		}
		db.Close()
	}
}

func TestOpenErrorsNamePathAndCause(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "plain-file")
	if err := os.WriteFile(file, []byte(strings.Repeat("not a database ", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, dsn, dataDir string
		want               []string
	}{
		{"data dir under a file", "", filepath.Join(file, "data"), []string{filepath.Join(file, "data"), "not a directory"}},
		{"database file in a missing dir", filepath.Join(base, "missing", "t.db"), "", []string{filepath.Join(base, "missing"), "no such file or directory"}},
		{"database file is a directory", base, "", []string{base, "is a directory"}},
		{"database file is not a database", file, "", []string{file}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := store.Open(context.Background(), c.dsn, c.dataDir)
			if err == nil {
				t.Fatal("opened")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Fatalf("error lacks %q: %v", w, err)
				}
			}
		})
	}
}

// TestOpenNamesUnwritableDataDir opens a data dir its user cannot write:
// the error names the directory and the cause, where SQLite alone says
// "unable to open database file (14)". Root writes anywhere, so as root
// the test binary runs the open as the unprivileged user nobody.
func TestOpenNamesUnwritableDataDir(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if err := os.Mkdir(data, 0o755); err != nil {
		t.Fatal(err)
	}
	var msg string
	if os.Getuid() != 0 {
		if err := os.Chmod(data, 0o555); err != nil {
			t.Fatal(err)
		}
		_, err := store.Open(context.Background(), "", data)
		if err == nil {
			t.Fatal("opened an unwritable data dir")
		}
		msg = err.Error()
	} else {
		msg = openAsNobody(t, dir, data)
	}
	if !strings.Contains(msg, data) || !strings.Contains(msg, "not writable") || !strings.Contains(msg, "permission denied") {
		t.Fatalf("error should name %s and the cause: %s", data, msg)
	}
	t.Logf("error: %s", strings.TrimSpace(msg))
}

// openAsNobody runs a copy of the test binary as uid 65534 to open the
// store in data and returns what it printed.
func openAsNobody(t *testing.T, dir, data string) string {
	t.Helper()
	bin, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "store.test")
	if err := os.WriteFile(exe, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), lockHolderEnv+"="+data)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("nobody opened a root-owned data dir: %s", out)
	}
	return string(out)
}
