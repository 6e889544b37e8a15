package store_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

var createTable = regexp.MustCompile(`(?i)CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?"?(\w+)"?`)

// migrationTables lists the tables the migrations of both backends create.
func migrationTables(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob("migrations/*/*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("no migrations found: %v", err)
	}
	out := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range createTable.FindAllStringSubmatch(string(b), -1) {
			out[strings.ToLower(m[1])] = true
		}
	}
	return out
}

// TestCopyCoversEveryTable fails when a migration adds a table that a copy
// would not move: every table of either backend's migrations must be
// copied on both backends, or be named as rebuilt by the target.
func TestCopyCoversEveryTable(t *testing.T) {
	derived := map[string]bool{}
	for _, n := range store.DerivedTableNames() {
		derived[n] = true
	}
	want := []string{}
	for n := range migrationTables(t) {
		if !derived[n] {
			want = append(want, n)
		}
	}
	sort.Strings(want)
	if len(want) < 15 {
		t.Fatalf("parsed only %d tables from the migrations: %v", len(want), want)
	}
	for _, backend := range testenv.Backends() {
		t.Run(backend, func(t *testing.T) {
			dsn := filepath.Join(t.TempDir(), "trove.db")
			if backend == "postgres" {
				dsn = testenv.NewPostgresDB(t)
			}
			db, err := store.Open(context.Background(), dsn, "")
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			got, err := db.CopiedTableNames(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Fatalf("copied tables differ from the migrations' tables:\ncopied:     %v\nmigrations: %v\n"+
					"a table in one backend only must be listed in derivedTables with the reason", got, want)
			}
		})
	}
}
