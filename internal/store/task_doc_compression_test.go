package store_test

import (
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// On PostgreSQL, task and model documents are compressed with LZ4 where
// the server has it (migration 0107), as the packed points' arrays are
// (0105): a large document written after the migration is stored LZ4.
func TestDocumentsCompressWithLZ4(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		if db.D.Name() == "sqlite" {
			return // SQLite does not compress rows
		}
		method := func(table, column string) string {
			var m string
			if err := db.Read().QueryRowContext(ctx, "SELECT attcompression::text FROM pg_attribute WHERE attrelid = $1::regclass AND attname = $2", table, column).Scan(&m); err != nil {
				t.Fatal(err)
			}
			return m
		}
		want := method("event_scalar_blocks", "vals") // "l" where the server has LZ4
		if want != "l" {
			t.Logf("this PostgreSQL has no LZ4: the documents keep the default")
		}
		for _, table := range []string{"tasks", "models"} {
			if got := method(table, "doc"); got != want {
				t.Fatalf("%s.doc compression %q, want %q as event_scalar_blocks", table, got, want)
			}
		}
		if want != "l" {
			return
		}
		tk := newTask("big", "c", "n")
		comment := strings.Repeat("a long comment that compresses well ", 400)
		tk.Comment = &comment
		if err := db.Tasks().Insert(ctx, db.Write(), tk); err != nil {
			t.Fatal(err)
		}
		var got string
		if err := db.Read().QueryRowContext(ctx, "SELECT pg_column_compression(doc) FROM tasks WHERE id = $1", tk.ID).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != "lz4" {
			t.Fatalf("a %d-byte task document is stored %q, want lz4", len(comment), got)
		}
	})
}
