package store_test

import (
	"fmt"
	"testing"

	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// BenchmarkProjectMerge times the write transaction of projects.merge for
// a project of 5,000 tasks (one in ten archived, which stay; two hyper
// parameters, a metric, tags each) and 200 models, moved back and forth
// between two projects: "rows" is the move before migration 0097 (the ids,
// then one UPDATE whose triggers redo every row's counts), "set" the move
// of the count rows with the triggers paused.
//
//	go test ./internal/store/ -run '^$' -bench ProjectMerge -benchtime 5x
func BenchmarkProjectMerge(b *testing.B) {
	for _, backend := range storetest.Backends() {
		b.Run(backend, func(b *testing.B) {
			db := storetest.Open(b, backend)
			loadMergeBench(b, db, 5000, 200)
			companies := []string{"c1", ""}
			moves := map[string]func(q store.Querier, table, src, dst string) (int, error){
				"rows": func(q store.Querier, table, src, dst string) (int, error) {
					ids, err := db.ActiveIDsInProject(ctx, q, table, src)
					if err != nil {
						return 0, err
					}
					return len(ids), db.SetProject(ctx, q, table, ids, dst)
				},
				"set": func(q store.Querier, table, src, dst string) (int, error) {
					return db.MoveActiveContents(ctx, q, table, companies, src, dst)
				},
			}
			for _, name := range []string{"rows", "set"} {
				move := moves[name]
				b.Run(name, func(b *testing.B) {
					src, dst := "pA", "pB"
					for i := 0; i < b.N; i++ {
						err := db.Tx(ctx, func(q store.Querier) error {
							for _, table := range []string{"tasks", "models"} {
								if _, err := move(q, table, src, dst); err != nil {
									return err
								}
							}
							return nil
						})
						if err != nil {
							b.Fatal(err)
						}
						src, dst = dst, src
					}
					b.StopTimer()
					if src != "pA" { // move them home for the next run
						if err := db.Tx(ctx, func(q store.Querier) error {
							for _, table := range []string{"tasks", "models"} {
								if _, err := move(q, table, src, dst); err != nil {
									return err
								}
							}
							return nil
						}); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}

func loadMergeBench(b *testing.B, db *store.DB, tasks, models int) {
	b.Helper()
	err := db.Tx(ctx, func(q store.Querier) error {
		for i := 0; i < tasks; i++ {
			tk := newTask(fmt.Sprintf("t%05d", i), "c1", fmt.Sprintf("bench task %d", i))
			tk.Project, tk.User = "pA", fmt.Sprintf("u%d", i%7)
			tk.Tags = []string{"bench", fmt.Sprintf("t%d", i%5)}
			if i%10 == 0 {
				tk.SystemTags = []string{store.ArchivedTag}
			}
			tk.Hyperparams = map[string]map[string]*store.ParamItem{"Args": {
				"lr": {Section: "Args", Name: "lr", Value: fmt.Sprint(i % 13)},
				"bs": {Section: "Args", Name: "bs", Value: fmt.Sprint(i % 3)}}}
			tk.LastMetrics = map[string]map[string]*store.MetricSummary{"hm": {"hv": {Metric: "loss", Variant: "total", Value: 1}}}
			if err := db.Tasks().Insert(ctx, q, tk); err != nil {
				return err
			}
		}
		for i := 0; i < models; i++ {
			m := &store.Model{ID: fmt.Sprintf("m%04d", i), Company: "c1", User: "u1", Name: "m", Project: "pA",
				Tags: []string{"bench"}, Created: jsonx.Now()}
			m.Normalize()
			if err := db.Models().Insert(ctx, q, m); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}
