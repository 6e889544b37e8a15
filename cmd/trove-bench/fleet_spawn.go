package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// With -server, the fleet reports to `trove serve` started as a child
// process rather than to a server inside this one. The SDK's clients are
// other processes, and in one process the thousands of client goroutines
// queue in front of the server's single writer in Go's scheduler; a child
// process also gives the server's own CPU apart from the clients'.

// cpu is the child's user + system CPU time so far (from /proc).
func (c *childServer) cpu() time.Duration {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(c.cmd.Process.Pid), "stat"))
	if err != nil {
		return 0
	}
	// the fields after the command name, which is in parentheses
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100 // USER_HZ
}

// experiments creates n tasks through the API, all reported to with one
// session token (token checks are cached; the SDK's login is not what is
// measured).
func (c *childServer) experiments(n int) ([]experiment, error) {
	tok, err := loginBasic(c.URL, "BENCHKEY", "bench-secret")
	if err != nil {
		return nil, err
	}
	out := make([]experiment, n)
	for i := range out {
		var env struct {
			Data struct {
				ID string `json:"id"`
			} `json:"data"`
		}
		body := fmt.Sprintf(`{"name":"fleet %d","type":"training"}`, i)
		if err := doJSON(postJSON(c.URL+"/tasks.create", tok, []byte(body)), &env); err != nil {
			return nil, fmt.Errorf("tasks.create: %w", err)
		}
		if env.Data.ID == "" {
			return nil, fmt.Errorf("tasks.create gave no id")
		}
		out[i] = experiment{task: env.Data.ID, token: tok}
	}
	return out, nil
}

// fleetOnChild runs the fleet against a child `trove serve` and prints the
// server's CPU apart from this process's (the clients').
func fleetOnChild(bin, db string, cfg fleetConfig) error {
	dir, err := os.MkdirTemp("", "trove-fleet-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	c, err := startChild(bin, dir, db, filepath.Join(dir, "serve.log"))
	if err != nil {
		return err
	}
	defer c.Stop()
	backend := "sqlite"
	if db != "" {
		backend = "postgres"
	}
	fmt.Printf("fleet benchmark: backend %s, server %s in its own process, %s\n", backend, bin, cfg)
	var exps []experiment
	if cfg.api == "mlflow" {
		exps, err = mlflowExperiments(c.URL, cfg.n)
	} else {
		exps, err = c.experiments(cfg.n)
	}
	if err != nil {
		return err
	}
	f := &fleetServer{url: c.URL, api: cfg.api}
	meter := postgresMeter(db)
	if err := f.fillHistory(exps, cfg); err != nil {
		return err
	}
	if cfg.history > 0 {
		settle(c.cpu, meter)
	}
	load0 := loadAverage()
	srv0, cli0, db0 := c.cpu(), cpuTime(), meter.mark()
	res := f.report(exps, cfg)
	srv, cli, db1 := c.cpu()-srv0, cpuTime()-cli0, meter.mark()
	res.print(cfg)
	acked := float64(max(1, res.acked.Load()))
	secs := res.elapsed.Seconds()
	fmt.Printf("server CPU: %.1f s over %.1f s = %.2f cores, %.2f ms per acknowledged batch; clients' CPU: %.2f cores; load average %s -> %s\n",
		srv.Seconds(), secs, srv.Seconds()/secs, 1000*srv.Seconds()/acked, cli.Seconds()/secs, load0, loadAverage())
	printDatabaseCPU(meter, db0, db1, res)
	return nil
}
