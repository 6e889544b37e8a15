package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"sort"
	"time"

	"github.com/trove-ml/trove/internal/app"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

func init() { benches["tasks"] = benchTasks }

// benchTasks measures tasks.create throughput through the API, then
// tasks.get_all_ex over a large table (tasks spread over projects, with
// hyper parameters and tags) filtered by project, tag and name regex,
// ordered by -last_update, one page of 50.
func benchTasks(args []string) error {
	fs := flag.NewFlagSet("tasks", flag.ContinueOnError)
	total := fs.Int("tasks", 100000, "tasks in the table")
	nProjects := fs.Int("projects", 100, "projects the tasks are spread over")
	createN := fs.Int("create", 3000, "tasks created through tasks.create (the rest are bulk-loaded)")
	workers := fs.Int("workers", 4, "concurrent clients for tasks.create")
	queries := fs.Int("queries", 300, "get_all_ex calls measured")
	db := fs.String("db", "", "postgres:// URL of an empty database (default: SQLite in a temp dir)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	b, err := startServer(*db)
	if err != nil {
		return err
	}
	defer b.Close()
	a, srv, tok := b.App, b, b.Token
	var env struct {
		Data map[string]any `json:"data"`
	}
	fmt.Printf("tasks benchmark: %d tasks over %d projects, backend %s, GOMAXPROCS=%d\n", *total, *nProjects, a.DB.D.Name(), runtime.GOMAXPROCS(0))

	projects := make([]string, *nProjects)
	for i := range projects {
		if err := doJSON(postJSON(srv.URL+"/projects.create", tok, []byte(fmt.Sprintf(`{"name":"bench project %03d"}`, i))), &env); err != nil {
			return err
		}
		projects[i], _ = env.Data["id"].(string)
	}

	// tasks.create throughput through the whole stack.
	n := 0
	created := make(chan struct{}, 1)
	created <- struct{}{}
	next := func() int {
		<-created
		defer func() { created <- struct{}{} }()
		n++
		return n
	}
	createBody := func(i int) []byte {
		b, _ := json.Marshal(taskBody(i, projects[i%len(projects)]))
		return b
	}
	deadline := 10 * time.Minute
	start := time.Now()
	res := runLoadN(*createN, *workers, deadline, func() *http.Request { return postJSON(srv.URL+"/tasks.create", tok, createBody(next())) })
	fmt.Printf("tasks.create (%d clients): %s  [%.1fs]\n", *workers, res, time.Since(start).Seconds())

	// The rest of the table, loaded directly.
	start = time.Now()
	if err := bulkTasks(context.Background(), a.DB, companyOfToken(a, tok), projects, res.Requests, *total); err != nil {
		return err
	}
	fmt.Printf("bulk load to %d tasks: %.1fs\n", *total, time.Since(start).Seconds())
	if a.DB.IsPostgres() {
		// Fresh statistics, as autovacuum would give a table of that size.
		if err := analyze(context.Background(), a.DB, "tasks"); err != nil {
			return err
		}
	}

	var lat []time.Duration
	for i := 0; i < *queries; i++ {
		body, _ := json.Marshal(map[string]any{
			"project":     []string{projects[i%len(projects)]},
			"tags":        []string{fmt.Sprintf("tag%d", i%10)},
			"name":        fmt.Sprintf("^bench task .*%d$", i%10),
			"order_by":    []string{"-last_update"},
			"page_size":   50,
			"only_fields": []string{"id", "name", "status", "project.name", "last_update", "tags", "hyperparams"},
		})
		t0 := time.Now()
		if err := doJSON(postJSON(srv.URL+"/tasks.get_all_ex", tok, body), &env); err != nil {
			return err
		}
		lat = append(lat, time.Since(t0))
		if i == 0 {
			list, _ := env.Data["tasks"].([]any)
			fmt.Printf("first query returned %d tasks\n", len(list))
		}
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	fmt.Printf("tasks.get_all_ex (project + tag + name regex, -last_update, page 50), %d calls: p50 %.2f ms  p99 %.2f ms\n",
		len(lat), ms(lat[len(lat)/2]), ms(lat[len(lat)*99/100]))
	return nil
}

// taskBody is the tasks.create body of bench task i.
func taskBody(i int, project string) map[string]any {
	return map[string]any{
		"name": fmt.Sprintf("bench task %d", i), "type": "training", "project": project,
		"tags": []string{fmt.Sprintf("tag%d", i%10), "common"},
		"hyperparams": map[string]any{"Args": map[string]any{
			"lr":     map[string]any{"section": "Args", "name": "lr", "value": fmt.Sprint(float64(i%100) / 1000), "type": "float"},
			"epochs": map[string]any{"section": "Args", "name": "epochs", "value": fmt.Sprint(i % 50), "type": "int"},
		}},
	}
}

// bulkTypes are the task types bulk-loaded tasks take in turn.
var bulkTypes = []string{"training", "testing", "inference", "data_processing"}

// bulkTasks inserts tasks from..to-1 in large transactions. The first 100
// are "controllers": every fourth task after them is a child of one (a
// few parents for many tasks, as pipelines make); one task in ten is
// archived; types rotate over bulkTypes.
func bulkTasks(ctx context.Context, db *store.DB, company string, projects []string, from, to int) error {
	const batch = 5000
	base := time.Now().Add(-time.Duration(to) * time.Second)
	var controllers []string
	for lo := from; lo < to; lo += batch {
		err := db.Tx(ctx, func(q store.Querier) error {
			for i := lo; i < min(lo+batch, to); i++ {
				at := jsonx.Time{Time: base.Add(time.Duration(i) * time.Second).UTC().Truncate(time.Millisecond)}
				t := &store.Task{ID: ids.New(), Company: company, User: "__admin__", Name: fmt.Sprintf("bench task %d", i),
					Type: bulkTypes[i%len(bulkTypes)], Status: "created", Project: projects[i%len(projects)], Created: at, LastUpdate: at, LastChange: at,
					Tags: []string{"common", fmt.Sprintf("tag%d", i%10)}, SystemTags: []string{},
					Hyperparams: map[string]map[string]*store.ParamItem{"Args": {
						"lr":     {Section: "Args", Name: "lr", Value: fmt.Sprint(float64(i%100) / 1000)},
						"epochs": {Section: "Args", Name: "epochs", Value: fmt.Sprint(i % 50)},
					}}}
				if len(controllers) < 100 {
					controllers = append(controllers, t.ID)
				} else if i%4 == 1 {
					t.Parent = controllers[i%len(controllers)]
				}
				if i%10 == 3 {
					t.SystemTags = []string{store.ArchivedTag}
				}
				t.Normalize()
				if err := db.Tasks().Insert(ctx, q, t); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// companyOfToken finds the admin's company from a task it created.
func companyOfToken(a *app.App, _ string) string {
	company, _ := anyTaskCompany(context.Background(), a.DB)
	return company
}

// runLoadN sends n requests built by mk from workers goroutines (bounded by d).
func runLoadN(n, workers int, d time.Duration, mk func() *http.Request) loadResult {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: workers * 2}}
	jobs := make(chan struct{}, n)
	for i := 0; i < n; i++ {
		jobs <- struct{}{}
	}
	close(jobs)
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	type out struct {
		lat []time.Duration
		bad int
	}
	results := make(chan out, workers)
	start := time.Now()
	for w := 0; w < workers; w++ {
		go func() {
			var o out
			for range jobs {
				if ctx.Err() != nil {
					break
				}
				t0 := time.Now()
				resp, err := client.Do(mk())
				if err != nil {
					o.bad++
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					o.bad++
					continue
				}
				o.lat = append(o.lat, time.Since(t0))
			}
			results <- o
		}()
	}
	var lat []time.Duration
	errs := 0
	for w := 0; w < workers; w++ {
		o := <-results
		lat = append(lat, o.lat...)
		errs += o.bad
	}
	el := time.Since(start)
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	r := loadResult{Requests: len(lat), Errors: errs, Duration: el}
	if len(lat) > 0 {
		r.P50, r.P99 = lat[len(lat)/2], lat[len(lat)*99/100]
		r.PerSecond = float64(len(lat)) / el.Seconds()
	}
	return r
}
