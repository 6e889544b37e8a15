package store_test

import (
	"fmt"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// BenchmarkRecordOwners times the owners of a company's tasks (what
// projects.get_user_names reads) on a store of 100,000 tasks over 20
// projects and 50 users: "scan" is the read before migration 0097 (the
// distinct owners of the task rows), "facet" the read of record_facets.
//
//	go test ./internal/store/ -run '^$' -bench RecordOwners -benchtime 20x
func BenchmarkRecordOwners(b *testing.B) {
	const tasks = 100_000
	for _, backend := range storetest.Backends() {
		b.Run(backend, func(b *testing.B) {
			db := storetest.Open(b, backend)
			for start := 0; start < tasks; start += 5000 {
				err := db.Tx(ctx, func(q store.Querier) error {
					for i := start; i < start+5000; i++ {
						tk := newTask(fmt.Sprintf("t%06d", i), "c1", "n")
						tk.Project, tk.User = fmt.Sprintf("p%02d", i%20), fmt.Sprintf("u%02d", i%50)
						if err := db.Tasks().Insert(ctx, q, tk); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			for _, scope := range []struct {
				name     string
				projects []string
			}{{"all", nil}, {"one project", []string{"p07"}}} {
				b.Run("scan "+scope.name, func(b *testing.B) {
					query, args := "SELECT DISTINCT user_id FROM tasks WHERE company IN (?, ?)", []any{"c1", ""}
					if scope.projects != nil {
						query, args = query+" AND project IN (?)", append(args, scope.projects[0])
					}
					for i := 0; i < b.N; i++ {
						if ids, err := store.IDs(ctx, db.Read(), query, args...); err != nil || len(ids) == 0 {
							b.Fatal(ids, err)
						}
					}
				})
				b.Run("facet "+scope.name, func(b *testing.B) {
					for i := 0; i < b.N; i++ {
						if ids, err := db.RecordOwners(ctx, "tasks", []string{"c1", ""}, scope.projects); err != nil || len(ids) == 0 {
							b.Fatal(ids, err)
						}
					}
				})
			}
		})
	}
}
