package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"time"

	"github.com/trove-ml/trove/internal/app"
	"github.com/trove-ml/trove/internal/auth"
)

func init() { benches["slowops"] = benchSlowOps }

// benchSlowOps times, alone, the operations the hostile runs found over
// 2 s on a store of 100,000 tasks, each with the bodies that make it do
// the most work, as the ordinary user of `hostile`. The store is kept in
// -dir (SQLite) or -db (PostgreSQL) and loaded only when it holds fewer
// tasks, so a later build is timed on the same data (its migrations run
// on start). -writes also times task writes and event ingest, the price of
// the indexes; -merge ends with a projects.merge (it changes the store).
func benchSlowOps(args []string) error {
	fs := flag.NewFlagSet("slowops", flag.ContinueOnError)
	total := fs.Int("tasks", 100000, "tasks in the store")
	rounds := fs.Int("rounds", 3, "calls of each body")
	dir := fs.String("dir", "", "data dir kept between runs (default: a temp dir, removed)")
	db := fs.String("db", "", "postgres:// URL of a database kept between runs (default: SQLite in -dir)")
	writes := fs.Bool("writes", false, "also time tasks.create, tasks.update and events.add_batch")
	merge := fs.Bool("merge", false, "end with projects.merge of one project's tasks into another (changes the store)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" {
		d, err := os.MkdirTemp("", "trove-slowops-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		*dir = d
	} else if err := os.MkdirAll(*dir, 0o755); err != nil {
		return err
	}
	t0 := time.Now()
	a, err := app.New(context.Background(), hostileConfig(*dir, *db), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		return err
	}
	defer a.Close()
	fmt.Printf("slowops: backend %s, GOMAXPROCS=%d, store %s; opened (migrations) in %.1fs; %s\n",
		a.DB.D.Name(), runtime.GOMAXPROCS(0), storeName(*dir, *db), time.Since(t0).Seconds(), loadAverage())
	srv := httptest.NewServer(a.Handler)
	defer srv.Close()
	tok, err := loginBasic(srv.URL, hostileKey, hostileSecret)
	if err != nil {
		return err
	}
	call := apiCaller(srv.URL, tok)
	projects, err := benchProjects(call)
	if err != nil {
		return err
	}
	have, err := a.DB.CountWhere(context.Background(), "tasks", "company = ?", []any{auth.DefaultCompanyID})
	if err != nil {
		return err
	}
	if have < *total {
		start := time.Now()
		if err := bulkTasks(context.Background(), a.DB, auth.DefaultCompanyID, projects, have, *total); err != nil {
			return err
		}
		fmt.Printf("bulk load of %d tasks: %.1fs (%.0f tasks/s)\n", *total-have, time.Since(start).Seconds(),
			float64(*total-have)/time.Since(start).Seconds())
		if a.DB.IsPostgres() {
			if err := analyze(context.Background(), a.DB, "tasks"); err != nil {
				return err
			}
		}
	}
	p := projects[0]
	for _, c := range slowCalls(p) {
		if *rounds < 1 {
			break
		}
		var lat []time.Duration
		var failed error
		for i := 0; i < *rounds; i++ {
			t0 := time.Now()
			_, err := call(c.op, c.body)
			lat = append(lat, time.Since(t0))
			if err != nil {
				failed = err
			}
		}
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		status := ""
		if failed != nil {
			status = "  error: " + clip(failed.Error(), 120)
		}
		fmt.Printf("%-28s %-62.62s median %8.1f ms  max %8.1f ms%s\n", c.op, c.body, ms(lat[len(lat)/2]), ms(lat[len(lat)-1]), status)
	}
	if *writes {
		if err := timeWrites(srv.URL, tok, projects); err != nil {
			return err
		}
	}
	if *merge {
		// The last project holds total/20 tasks (the bulk load spreads them).
		src, dst := projects[len(projects)-1], projects[len(projects)-2]
		t0 := time.Now()
		d, err := call("projects.merge", fmt.Sprintf(`{"project":%q,"destination_project":%q}`, src, dst))
		if err != nil {
			return err
		}
		fmt.Printf("%-28s %-62s %8.1f ms  moved %v\n", "projects.merge", "(one project's tasks into another)", ms(time.Since(t0)), d["moved_entities"])
	}
	fmt.Println(loadAverage())
	return nil
}

// apiCaller calls operations at url with tok and returns their data.
func apiCaller(url, tok string) func(op, body string) (map[string]any, error) {
	return func(op, body string) (map[string]any, error) {
		var env struct {
			Data map[string]any `json:"data"`
		}
		err := doJSON(postJSON(url+"/"+op, tok, []byte(body)), &env)
		return env.Data, err
	}
}

// benchProjects returns the 20 projects of the store, creating them when
// missing.
func benchProjects(call func(op, body string) (map[string]any, error)) ([]string, error) {
	var out []string
	for i := 0; i < 20; i++ {
		name := fmt.Sprintf("hostile project %02d", i)
		d, err := call("projects.get_all", fmt.Sprintf(`{"name":"^%s$","only_fields":["id"]}`, name))
		if err != nil {
			return nil, err
		}
		if list, _ := d["projects"].([]any); len(list) > 0 {
			out = append(out, list[0].(map[string]any)["id"].(string))
			continue
		}
		if d, err = call("projects.create", fmt.Sprintf(`{"name":%q}`, name)); err != nil {
			return nil, err
		}
		out = append(out, d["id"].(string))
	}
	return out, nil
}

// slowCalls are the bodies timed: each operation's common call (what the
// web app sends) and the ones that make it read the most.
func slowCalls(p string) []struct{ op, body string } {
	return []struct{ op, body string }{
		{"organization.get_tags", `{}`},
		{"organization.get_tags", `{"include_system":true}`},
		{"organization.get_tags", `{"include_system":true,"filter":{"system_tags":["-archived"]}}`},
		{"organization.get_tags", `{"include_system":true,"filter":{"tags":["__$not","common"]}}`},
		{"projects.get_task_tags", `{"projects":[]}`},
		{"projects.get_task_tags", fmt.Sprintf(`{"projects":[%q]}`, p)},
		{"projects.get_task_tags", `{"include_system":true,"filter":{"tags":["-common"],"system_tags":["archived"]}}`},
		{"projects.get_model_tags", `{"projects":[]}`},
		{"projects.get_task_parents", `{"projects":[],"tasks_state":"active"}`},
		{"projects.get_task_parents", fmt.Sprintf(`{"projects":[%q],"tasks_state":"archived"}`, p)},
		{"projects.get_task_parents", `{"task_name":"^bench task 9"}`},
		{"tasks.get_types", `{"projects":[]}`},
		{"tasks.get_types", fmt.Sprintf(`{"projects":[%q]}`, p)},
		{"tasks.get_all", `{"name":"^no such task$"}`},
		{"tasks.get_all", `{"user":["nobody"]}`},
		{"tasks.get_all", `{"type":["optimizer"]}`},
		{"tasks.get_all", `{"tags":["no-such-tag"]}`},
		{"tasks.get_all", `{"system_tags":["no-such-tag"]}`},
		{"tasks.get_all", `{"parent":["no-such-task"]}`},
		{"tasks.get_all", `{"comment":"no such comment"}`},
		{"tasks.get_all", `{"search_text":"no such text"}`},
		{"tasks.get_all", `{"hyperparams.Args.lr.value":["no-such-value"]}`},
		{"tasks.get_all", `{"last_metrics.a.b.value":[1,2]}`},
		{"tasks.get_all", `{"runtime.x":"1"}`},
		{"tasks.get_all", `{"order_by":["comment"]}`},
		{"tasks.get_all", `{"order_by":["-hyperparams.Args.lr.value"],"page":190,"page_size":500}`},
		{"tasks.get_all_ex", `{"name":"^no such task$","only_fields":["id","name"]}`},
		{"tasks.get_all_ex", `{"search_text":"no such text","order_by":["-last_update"]}`},
		{"tasks.get_all_ex", `{"_any_":{"pattern":"no such","fields":["name","comment","script.repository"]}}`},
		{"tasks.get_all_ex", `{"order_by":["-last_metrics.a.b.value"],"page_size":500}`},
	}
}

// storeName names the store for the report.
func storeName(dir, db string) string {
	if db != "" {
		return "postgres"
	}
	return filepath.Join(dir, "trove.db")
}
