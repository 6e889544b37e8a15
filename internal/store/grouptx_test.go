package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// TestGroupTxSettingsLastOneTransaction: a group transaction commits or
// rolls back as Tx does, and on SQLite its in-memory journals hold inside
// it only: after a commit, a failure or a panic the writer's connection
// is back at the default, where large sorts may spill to files.
func TestGroupTxSettingsLastOneTransaction(t *testing.T) {
	cases := []struct {
		name    string
		fail    error
		panics  bool
		wantRow bool
	}{
		{name: "commit", wantRow: true},
		{name: "error", fail: errors.New("batch refused")},
		{name: "panic", panics: true},
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		sqlite := !db.IsPostgres()
		if _, err := db.Write().ExecContext(ctx, `CREATE TABLE group_tx_probe (name TEXT NOT NULL)`); err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				inside := -1
				run := func() (err error) {
					defer func() {
						if p := recover(); p != nil && !c.panics {
							t.Fatalf("unexpected panic: %v", p)
						}
					}()
					return db.GroupTx(ctx, func(q store.Querier) error {
						if _, err := q.ExecContext(ctx, `INSERT INTO group_tx_probe (name) VALUES (?)`, c.name); err != nil {
							return err
						}
						if sqlite {
							if err := q.QueryRowContext(ctx, `PRAGMA temp_store`).Scan(&inside); err != nil {
								return err
							}
						}
						if c.panics {
							panic("writer failed")
						}
						return c.fail
					})
				}
				err := run()
				if c.fail != nil && !errors.Is(err, c.fail) {
					t.Fatalf("GroupTx = %v, want %v", err, c.fail)
				}
				if c.fail == nil && !c.panics && err != nil {
					t.Fatal(err)
				}
				var n int
				if err := db.Write().QueryRowContext(ctx, `SELECT COUNT(*) FROM group_tx_probe WHERE name = ?`, c.name).Scan(&n); err != nil {
					t.Fatal(err)
				}
				if (n == 1) != c.wantRow || n > 1 {
					t.Fatalf("rows written = %d, want row: %v", n, c.wantRow)
				}
				if !sqlite {
					return
				}
				if inside != 2 {
					t.Fatalf("temp_store inside the group = %d, want 2 (memory)", inside)
				}
				var after int
				if err := db.Write().QueryRowContext(ctx, `PRAGMA temp_store`).Scan(&after); err != nil {
					t.Fatal(err)
				}
				if after != 0 {
					t.Fatalf("temp_store after the group = %d, want 0 (the default)", after)
				}
			})
		}
	})
}
