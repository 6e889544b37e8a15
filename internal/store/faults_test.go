package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestFaultOf: the store's classification of errors into faults the API
// answers 503 (retryable), and of everything else into none (a 500 for a
// bug, or the application's own error).
func TestFaultOf(t *testing.T) {
	pg := func(code string) error { return fmt.Errorf("insert: %w", &pgconn.PgError{Code: code}) }
	cases := []struct {
		name string
		err  error
		want Fault
	}{
		{"nil", nil, ""},
		{"plain error", errors.New("bug"), ""},
		{"context canceled", fmt.Errorf("q: %w", context.Canceled), ""},
		{"deadline", fmt.Errorf("q: %w", context.DeadlineExceeded), ""},
		{"pg connection failure 08006", pg("08006"), FaultUnreachable},
		{"pg connection does not exist 08003", pg("08003"), FaultUnreachable},
		{"pg disk full 53100", pg("53100"), FaultNoSpace},
		{"pg too many connections 53300", pg("53300"), FaultBusy},
		{"pg admin shutdown 57P01", pg("57P01"), FaultShutdown},
		{"pg crash shutdown 57P02", pg("57P02"), FaultShutdown},
		{"pg cannot connect now 57P03", pg("57P03"), FaultShutdown},
		{"pg read-only transaction 25006", pg("25006"), FaultReadOnly},
		{"pg unique violation", pg("23505"), ""},
		{"pg serialization failure (retried inside)", pg("40001"), ""},
		{"pg syntax error (a bug)", pg("42601"), ""},
		{"pg connect error", fmt.Errorf("open: %w", &pgconn.ConnectError{}), FaultUnreachable},
		{"refused", fmt.Errorf("dial: %w", syscall.ECONNREFUSED), FaultUnreachable},
		{"reset", fmt.Errorf("read: %w", syscall.ECONNRESET), FaultUnreachable},
		{"bad conn", driver.ErrBadConn, FaultUnreachable},
		{"pgx closed conn", errors.New("conn closed"), FaultUnreachable},
		{"ENOSPC", fmt.Errorf("write: %w", syscall.ENOSPC), FaultNoSpace},
		{"EROFS", fmt.Errorf("write: %w", syscall.EROFS), FaultReadOnly},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := FaultOf(c.err); got != c.want {
				t.Fatalf("FaultOf(%v) = %q, want %q", c.err, got, c.want)
			}
		})
	}
}

// TestFaultOfSQLiteErrors: real SQLite errors (from the driver, with their
// result codes) are classified by code.
func TestFaultOfSQLiteErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.db")
	db, err := openSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := db.w.ExecContext(ctx, `CREATE TABLE t (x INTEGER PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	// a write on the read-only pool: SQLITE_READONLY
	_, err = db.r.ExecContext(ctx, `INSERT INTO t VALUES (1)`)
	if got := FaultOf(err); got != FaultReadOnly {
		t.Fatalf("write on the query_only pool: %v classified %q, want %q", err, got, FaultReadOnly)
	}
	// a constraint violation is no fault
	if _, err := db.w.ExecContext(ctx, `INSERT INTO t VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	_, err = db.w.ExecContext(ctx, `INSERT INTO t VALUES (1)`)
	if err == nil || FaultOf(err) != "" {
		t.Fatalf("unique violation %v classified %q, want none", err, FaultOf(err))
	}
	db.w.Close()
	db.r.Close()
	// a database that cannot be opened: SQLITE_CANTOPEN
	bad, err := openSQLite(filepath.Join(dir, "missing", "t.db"))
	if err == nil {
		err = bad.w.PingContext(ctx)
		bad.w.Close()
		bad.r.Close()
	}
	if got := FaultOf(err); got != FaultUnreachable {
		t.Fatalf("open in a missing directory: %v classified %q, want %q", err, got, FaultUnreachable)
	}
	_ = os.Remove(path)
}
