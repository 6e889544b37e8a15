package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
)

// SnapshotSQLite writes a consistent copy of the SQLite database at path
// into the new file dst with VACUUM INTO. It reads one snapshot, so a
// server may keep writing meanwhile; it takes no lock of its own.
func SnapshotSQLite(ctx context.Context, path, dst string) error {
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("database file %s: %w", path, causeOf(err))
	}
	// Not query_only: SQLite counts VACUUM INTO as a write, though it
	// only reads this database.
	conn, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return fmt.Errorf("open SQLite database %s: %w", path, err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `VACUUM INTO ?`, dst); err != nil {
		return fmt.Errorf("snapshot SQLite database %s into %s: %w", path, dst, err)
	}
	return nil
}
