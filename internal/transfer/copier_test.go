package transfer_test

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
	"github.com/trove-ml/trove/internal/transfer"
)

var createTable = regexp.MustCompile(`(?i)CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?"?(\w+)"?`)

// migrationTables lists the tables the migrations of both backends create.
func migrationTables(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob("../store/migrations/*/*.sql")
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
	for _, n := range transfer.DerivedTableNames() {
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
			got, err := transfer.CopiedTableNames(context.Background(), db)
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

// TestCopyRebuildsIndexes copies with every table's secondary indexes
// dropped for the load: afterwards the target has exactly the indexes of
// a freshly migrated store, and the copy checks out.
func TestCopyRebuildsIndexes(t *testing.T) {
	defer transfer.SetRebuildIndexesFrom(0)()
	ctx := context.Background()
	for _, from := range testenv.Backends() {
		for _, to := range testenv.Backends() {
			t.Run(from+"_to_"+to, func(t *testing.T) {
				src := testenv.New(t, from)
				task := src.Call(t, "tasks.create", map[string]any{"name": "index test", "type": "training"}).OK(t).Str("id")
				src.Call(t, "events.add", map[string]any{"type": "log", "task": task, "msg": "m"}).OK(t)
				open := func() *store.DB {
					dsn := filepath.Join(t.TempDir(), "trove.db")
					if to == "postgres" {
						dsn = testenv.NewPostgresDB(t)
					}
					db, err := store.Open(ctx, dsn, "")
					if err != nil {
						t.Fatal(err)
					}
					t.Cleanup(func() { db.Close() })
					return db
				}
				fresh, dst := open(), open()
				want, err := transfer.SecondaryIndexes(ctx, fresh)
				if err != nil || len(want) == 0 {
					t.Fatalf("indexes: %v %v", want, err)
				}
				c, err := transfer.NewCopier(ctx, src.App.DB, dst)
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				for _, tb := range c.Tables() {
					if err := c.CopyTable(ctx, tb.Name, nil); err != nil {
						t.Fatal(err)
					}
				}
				if chk, err := c.Verify(ctx); err != nil || !chk.OK() {
					t.Fatalf("check: %v %+v", err, chk)
				}
				got, err := transfer.SecondaryIndexes(ctx, dst)
				if err != nil {
					t.Fatal(err)
				}
				for name, create := range want {
					if got[name] != create {
						t.Errorf("index %s: got %q, want %q", name, got[name], create)
					}
				}
				if len(got) != len(want) {
					t.Errorf("%d indexes, want %d", len(got), len(want))
				}
			})
		}
	}
}
