package main

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"sort"
	"time"
)

func init() { benches["aggregates"] = benchAggregates }

// benchAggregates times the project operations that aggregate over every
// task of a company (the slowest answers of `hostile` on a large store),
// alone, on a bulk-loaded store of n tasks over 20 projects.
func benchAggregates(args []string) error {
	fs := flag.NewFlagSet("aggregates", flag.ContinueOnError)
	total := fs.Int("tasks", 100000, "tasks in the store")
	rounds := fs.Int("rounds", 5, "calls of each operation")
	db := fs.String("db", "", "postgres:// URL of an empty database (default: SQLite in a temp dir)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	b, err := startServer(*db)
	if err != nil {
		return err
	}
	defer b.Close()
	var env struct {
		Data map[string]any `json:"data"`
	}
	projects := make([]string, 20)
	for i := range projects {
		if err := doJSON(postJSON(b.URL+"/projects.create", b.Token, []byte(fmt.Sprintf(`{"name":"aggregates project %02d"}`, i))), &env); err != nil {
			return err
		}
		projects[i], _ = env.Data["id"].(string)
	}
	start := time.Now()
	if err := bulkTasks(context.Background(), b.App.DB, companyOfToken(b.App, b.Token), projects, 0, *total); err != nil {
		return err
	}
	fmt.Printf("aggregates: %d tasks over %d projects, backend %s, GOMAXPROCS=%d; bulk load %.1fs\n",
		*total, len(projects), b.App.DB.D.Name(), runtime.GOMAXPROCS(0), time.Since(start).Seconds())
	if b.App.DB.IsPostgres() {
		if err := analyze(context.Background(), b.App.DB, "tasks"); err != nil {
			return err
		}
	}
	calls := []struct{ op, body string }{
		{"projects.get_hyper_parameters", `{}`},
		{"projects.get_hyper_parameters", fmt.Sprintf(`{"projects":[%q]}`, projects[0])},
		{"projects.get_hyperparam_values", `{"section":"Args","name":"lr"}`},
		{"projects.get_hyperparam_values", fmt.Sprintf(`{"projects":[%q],"section":"Args","name":"epochs"}`, projects[0])},
		{"projects.get_unique_metric_variants", `{}`},
		{"projects.get_unique_metric_variants", fmt.Sprintf(`{"project":%q}`, projects[0])},
		{"projects.get_task_parents", `{}`},
	}
	for _, c := range calls {
		var lat []time.Duration
		for i := 0; i < *rounds; i++ {
			t0 := time.Now()
			if err := doJSON(postJSON(b.URL+"/"+c.op, b.Token, []byte(c.body)), &env); err != nil {
				return fmt.Errorf("%s %s: %w", c.op, c.body, err)
			}
			lat = append(lat, time.Since(t0))
		}
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		fmt.Printf("%-38s %-48.48s median %7.1f ms  max %7.1f ms\n", c.op, c.body, ms(lat[len(lat)/2]), ms(lat[len(lat)-1]))
	}
	return nil
}
