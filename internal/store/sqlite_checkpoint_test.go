package store_test

import (
	"encoding/binary"
	"io"
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
	// is checkpointed (by the checkpointer, or the writer's bound). How far
	// the file grows before that depends on how busy the machine is, so
	// the test watches for the restarts themselves: the log header's
	// checkpoint sequence number, which SQLite increments each time it
	// starts the log over, must move within a bounded wait.
	seq0 := walSequence(t, path+"-wal")
	write(5000)
	deadline = time.Now().Add(30 * time.Second)
	for walSequence(t, path+"-wal") == seq0 {
		if time.Now().After(deadline) {
			t.Fatalf("the log was never started over in 40 MB of commits and 30 s (file %d bytes)", size(path+"-wal"))
		}
		write(1) // a log is started over when a write begins
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("log started over: checkpoint sequence %d -> %d, file %d bytes", seq0, walSequence(t, path+"-wal"), size(path+"-wal"))
}

// walSequence reads the checkpoint sequence number of a SQLite log (bytes
// 12-15 of its header, big-endian).
func walSequence(t *testing.T, path string) uint32 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var h [16]byte
	if _, err := io.ReadFull(f, h[:]); err != nil {
		t.Fatalf("read the log header of %s: %v", path, err)
	}
	return binary.BigEndian.Uint32(h[12:16])
}
