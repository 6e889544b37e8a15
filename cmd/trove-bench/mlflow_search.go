package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"
)

func init() { benches["mlflow-search"] = benchMLflowSearch }

// benchMLflowSearch times MLflow's runs/search over many runs with a
// metric filter and an order by another metric, as mlflow.search_runs
// sends it: `runs` runs in one experiment, each with a loss, an acc and a
// param logged through the MLflow API, then `queries` searches one at a
// time for each page size.
func benchMLflowSearch(args []string) error {
	fs := flag.NewFlagSet("mlflow-search", flag.ContinueOnError)
	db := fs.String("db", "", "postgres:// URL of an empty database (default: SQLite in a temp dir)")
	runs := fs.Int("runs", 10000, "runs in the experiment")
	queries := fs.Int("queries", 200, "searches timed per page size")
	pages := fs.String("max-results", "100,1000", "page sizes (max_results) to time")
	filter := fs.String("filter", "metrics.loss < 0.5", "the search's filter")
	order := fs.String("order-by", "metrics.acc DESC", "the search's order")
	profile := fs.String("cpuprofile", "", "write a CPU profile of the searches to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	srv, err := startServer(*db)
	if err != nil {
		return err
	}
	defer srv.Close()
	base := srv.URL + "/api/2.0/mlflow/"
	fmt.Printf("mlflow-search benchmark: backend %s, GOMAXPROCS=%d, %d runs, load average %s\n",
		srv.App.DB.D.Name(), runtime.GOMAXPROCS(0), *runs, loadAverage())
	var exp struct {
		ID string `json:"experiment_id"`
	}
	auth := "Bearer " + srv.Token
	if err := mlflowCall(base+"experiments/create", auth, []byte(`{"name":"search bench"}`), &exp); err != nil {
		return err
	}
	start := time.Now()
	if err := seedRuns(base, auth, exp.ID, *runs); err != nil {
		return err
	}
	fmt.Printf("seeded %d runs in %.1f s\n", *runs, time.Since(start).Seconds())
	// the planner's statistics, as autovacuum (PostgreSQL) would have them
	if err := analyze(context.Background(), srv.App.DB, "tasks"); err != nil {
		return err
	}
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	for _, p := range strings.Split(*pages, ",") {
		body := fmt.Sprintf(`{"experiment_ids":[%q],"filter":%q,"order_by":[%q],"max_results":%s}`, exp.ID, *filter, *order, strings.TrimSpace(p))
		lat := make([]time.Duration, 0, *queries)
		got := 0
		cpu0 := cpuTime()
		for i := 0; i < *queries; i++ {
			t0 := time.Now()
			n, err := searchOnce(base+"runs/search", auth, body)
			if err != nil {
				return err
			}
			lat = append(lat, time.Since(t0))
			got = n
		}
		cpu := cpuTime() - cpu0
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		// the CPU a call takes (server and client, one process) does not
		// grow with the machine's load as the wall-clock latency does
		fmt.Printf("runs/search %q order by %q, max_results %s: %d runs a page; p50 %.1f ms, p99 %.1f ms over %d calls; CPU %.1f ms a call\n",
			*filter, *order, strings.TrimSpace(p), got, ms(lat[len(lat)/2]), ms(lat[len(lat)*99/100]), len(lat), ms(cpu)/float64(len(lat)))
	}
	fmt.Printf("load average after: %s\n", loadAverage())
	return nil
}

// seedRuns creates n runs in experiment exp, each with a loss and an acc
// (spread over [0, 1)) and a param, from 8 clients.
func seedRuns(base, auth, exp string, n int) error {
	var g errgroup.Group
	g.SetLimit(8)
	for i := 0; i < n; i++ {
		g.Go(func() error {
			var run struct {
				Run struct {
					Info struct {
						RunID string `json:"run_id"`
					} `json:"info"`
				} `json:"run"`
			}
			body := fmt.Sprintf(`{"experiment_id":%q,"start_time":%d,"run_name":"run %d"}`, exp, 1700000000000+int64(i), i)
			if err := mlflowCall(base+"runs/create", auth, []byte(body), &run); err != nil {
				return fmt.Errorf("runs/create: %w", err)
			}
			loss := float64((i*7919)%10000) / 10000
			acc := float64((i*104729)%10000) / 10000
			body = fmt.Sprintf(`{"run_id":%q,"metrics":[{"key":"loss","value":%g,"timestamp":1,"step":0},{"key":"acc","value":%g,"timestamp":1,"step":0}],"params":[{"key":"lr","value":"%d"}]}`,
				run.Run.Info.RunID, loss, acc, i%10)
			if err := mlflowCall(base+"runs/log-batch", auth, []byte(body), nil); err != nil {
				return fmt.Errorf("runs/log-batch: %w", err)
			}
			return nil
		})
	}
	return g.Wait()
}

// searchOnce sends one search and returns how many runs it answered.
func searchOnce(url, auth, body string) (int, error) {
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", auth)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("runs/search: status %d: %.300s", resp.StatusCode, raw)
	}
	var out struct {
		Runs []json.RawMessage `json:"runs"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return 0, err
	}
	return len(out.Runs), nil
}
