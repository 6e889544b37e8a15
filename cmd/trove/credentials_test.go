package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

// TestMain lets a test run the trove command in a process of its own
// (runMain): the store's lock is per process, so only another process
// meets it the way a user's second command does.
func TestMain(m *testing.M) {
	if os.Getenv("TROVE_TEST_RUN_MAIN") == "1" {
		os.Exit(run(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// runMain runs `trove args...` in a child process and returns its output.
func runMain(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "TROVE_TEST_RUN_MAIN=1")
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	err = cmd.Run()
	return out.String(), errs.String(), err
}

func TestCredentialsCreateBesideRunningServer(t *testing.T) {
	for _, backend := range testenv.Backends() {
		t.Run(backend, func(t *testing.T) {
			in := newInstance(t, backend)
			free := "127.0.0.1:0"
			r := start(t, in.args(free, free, free))
			defer r.stop()
			api := "http://" + apiAddr(t, r.stderr.String())

			args := []string{"credentials", "create", "--user", "carol", "--data-dir", in.dir}
			if in.db != "" {
				args = append(args, "--db", in.db)
			}
			out, errs, err := runMain(t, args...)
			if err != nil {
				t.Fatalf("credentials create beside a running server: %v\nstdout:\n%s\nstderr:\n%s", err, out, errs)
			}
			_, keys := snippet(t, out)
			// The running server accepts the key written by the other process.
			login(t, api, keys["access"], keys["secret"])
			if !strings.Contains(out, `"carol"`) {
				t.Errorf("the command does not name the user:\n%s", out)
			}
		})
	}
}

// A server of another schema version holds the store: the command refuses
// rather than writing beside it.
func TestCredentialsCreateRefusesAnotherSchemaBesideServer(t *testing.T) {
	in := newInstance(t, "sqlite")
	free := "127.0.0.1:0"
	r := start(t, in.args(free, free, free))
	defer r.stop()
	db, err := store.Open(context.Background(), "", in.dir) // the same process: shares the lock
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Write().ExecContext(context.Background(), `DELETE FROM schema_migrations WHERE version = (SELECT MAX(version) FROM schema_migrations)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	out, errs, err := runMain(t, "credentials", "create", "--data-dir", in.dir)
	if err == nil {
		t.Fatalf("credentials create wrote beside a server of another schema:\n%s", out)
	}
	if !strings.Contains(errs, "schema is at version") || !strings.Contains(errs, "held by a running Trove") {
		t.Fatalf("the refusal does not say why:\n%s", errs)
	}
}
