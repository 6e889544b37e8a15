package store_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/store"
)

// TestCheckpointsBesideTheWriter: on SQLite, committed pages reach the
// database file without the writer checkpointing. The writer's own
// automatic checkpoint only starts at thousands of pages of log, so with
// a few hundred pages written the file grows only through the
// checkpointer; and the log stays bounded while much more is written.
func TestCheckpointsBesideTheWriter(t *testing.T) {
	dir := t.TempDir()
	db, err := store.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.IsPostgres() {
		t.Fatal("a data directory opens SQLite")
	}
	path := filepath.Join(dir, "trove.db")
	size := func(p string) int64 {
		st, err := os.Stat(p)
		if err != nil {
			return 0
		}
		return st.Size()
	}
	mustTx(t, db, func(q store.Querier) error {
		_, err := q.ExecContext(ctx, "CREATE TABLE ckpt_probe (b BLOB)")
		return err
	})
	before := size(path)
	blob := make([]byte, 8000)
	write := func(rows int) {
		for i := 0; i < rows; i++ {
			mustTx(t, db, func(q store.Querier) error {
				_, err := q.ExecContext(ctx, "INSERT INTO ckpt_probe (b) VALUES (?)", blob)
				return err
			})
		}
	}
	write(300) // about 600 pages: under the writer's own threshold
	deadline := time.Now().Add(10 * time.Second)
	for size(path) < before+2_000_000 {
		if time.Now().After(deadline) {
			t.Fatalf("database file %d bytes (log %d) 10 s after the commits: the pages were not checkpointed", size(path), size(path+"-wal"))
		}
		time.Sleep(20 * time.Millisecond)
	}
	// 10,000 more pages in quick commits: the log is started over as it
	// is checkpointed (by the checkpointer, or the writer's bound)
	write(5000)
	if wal := size(path + "-wal"); wal > 64<<20 {
		t.Fatalf("log %d bytes after 40 MB of commits: not bounded", wal)
	}
}
