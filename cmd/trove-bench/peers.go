package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

func init() { benches["peers"] = benchPeers }

// benchPeers measures scalar ingest side by side in one run, all on
// SQLite: raw multi-row INSERTs of the rows Trove stores (the limit),
// Trove's events.add_batch, and the MLflow REST runs/log-batch of
// FastTrackML and of the MLflow tracking server, each with `workers`
// clients sending `batch` points per request for `duration`. MLflow and
// FastTrackML come from PyPI, installed into a virtualenv (peers_venv.go).
func benchPeers(args []string) error {
	fs := flag.NewFlagSet("peers", flag.ContinueOnError)
	dur := fs.Duration("duration", 20*time.Second, "duration of each ingest run")
	workers := fs.Int("workers", 4, "concurrent clients")
	batch := fs.Int("batch", 1000, "points per request (MLflow accepts at most 1000)")
	venv := fs.String("venv", defaultVenv(), "virtualenv holding mlflow and fasttrackml (created and filled when missing)")
	only := fs.String("only", "raw,trove,trove-mlflow,fasttrackml,mlflow", "systems to measure")
	profile := fs.String("cpuprofile", "", "write a CPU profile of Trove's MLflow log-batch load to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	fmt.Printf("peers benchmark: %d clients x %d points/request, %s each, GOMAXPROCS=%d, load average %s\n",
		*workers, *batch, *dur, runtime.GOMAXPROCS(0), loadAverage())
	var rows []peerRow
	if strings.Contains(*only, "raw") || strings.Contains(*only, "trove") {
		rs, err := troveRows(*dur, *workers, *batch, *only, *profile)
		if err != nil {
			return err
		}
		rows = append(rows, rs...)
	}
	for _, p := range peerServers() {
		if !hasSystem(*only, p.name) {
			continue
		}
		if err := ensureVenv(*venv); err != nil {
			return err
		}
		r, err := measurePeer(p, *venv, *dur, *workers, *batch)
		if err != nil {
			return fmt.Errorf("%s: %w", p.name, err)
		}
		rows = append(rows, r)
	}
	fmt.Printf("load average after the run: %s\n\n", loadAverage())
	printPeerTable(rows)
	return nil
}

// peerRow is one line of the table.
type peerRow struct {
	system   string
	kind     string // "raw", "trove", "trove-mlflow" or "peer"
	perSec   float64
	requests int
	errors   int
}

// troveRows measures Trove's add_batch and the raw inserts on one fresh
// SQLite database, as `trove-bench events -only ingest` does.
func troveRows(d time.Duration, workers, batch int, only, profile string) ([]peerRow, error) {
	srv, err := startServer("")
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	// the background jobs run as in a served Trove (the rollups among them)
	jobsCtx, stopJobs := context.WithCancel(context.Background())
	var jobs sync.WaitGroup
	srv.App.StartJobs(jobsCtx, &jobs)
	defer func() {
		stopJobs()
		jobs.Wait()
	}()
	b := &eventsBench{a: srv.App, url: srv.URL, token: srv.Token}
	var rows []peerRow
	if strings.Contains(only, "raw") {
		raw, _, err := b.rawInsert(d, workers, batch, 0)
		if err != nil {
			return nil, err
		}
		rows = append(rows, peerRow{system: "raw SQLite inserts of the same rows (the limit)", kind: "raw", perSec: raw})
		fmt.Printf("raw inserts: %.0f points/s\n", raw)
	}
	if hasSystem(only, "trove") {
		tasks := make([]string, workers)
		iters := make([]int64, workers)
		for i := range tasks {
			if tasks[i], err = b.newTask(fmt.Sprintf("peers %d", i)); err != nil {
				return nil, err
			}
		}
		res := runLoad(d, workers, func(w int) *http.Request {
			body := scalarLines(make([]byte, 0, batch*170), tasks[w], batch, &iters[w])
			return b.post("events.add_batch", "application/json-lines", body)
		})
		rows = append(rows, okRow("Trove, ClearML API (events.add_batch)", "trove", res, batch))
		fmt.Printf("trove events.add_batch: %s\n", res)
	}
	if hasSystem(only, "trove-mlflow") {
		r, err := troveMLflowRow(srv, d, workers, batch, profile)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// okRow counts only the acknowledged points of a load run.
func okRow(system, kind string, res loadResult, batch int) peerRow {
	ok := res.Requests - res.Errors
	return peerRow{system: system, kind: kind, perSec: float64(ok*batch) / res.Duration.Seconds(),
		requests: res.Requests, errors: res.Errors}
}

// printPeerTable prints the Markdown table: raw against Trove, Trove
// against each peer.
func printPeerTable(rows []peerRow) {
	var raw, trove, troveML float64
	for _, r := range rows {
		switch r.kind {
		case "raw":
			raw = r.perSec
		case "trove":
			trove = r.perSec
		case "trove-mlflow":
			troveML = r.perSec
		}
	}
	fmt.Println("| system | points/s | vs Trove | requests (failed) |")
	fmt.Println("|---|---|---|---|")
	for _, r := range rows {
		vs := ""
		switch {
		case (r.kind == "trove" || r.kind == "trove-mlflow") && raw > 0:
			vs = fmt.Sprintf("%.2f of raw", r.perSec/raw)
		case r.kind == "peer" && r.perSec > 0 && troveML > 0:
			vs = fmt.Sprintf("Trove's MLflow API %.1fx faster", troveML/r.perSec)
		case r.kind == "peer" && r.perSec > 0 && trove > 0:
			vs = fmt.Sprintf("Trove %.1fx faster", trove/r.perSec)
		case r.kind == "peer" && (trove > 0 || troveML > 0):
			vs = "no batch acknowledged"
		}
		reqs := ""
		if r.kind == "trove-mlflow" && trove > 0 {
			if vs != "" {
				vs += ", "
			}
			vs += fmt.Sprintf("%.2f of events.add_batch", r.perSec/trove)
		}
		if r.kind != "raw" {
			reqs = fmt.Sprintf("%d (%d)", r.requests, r.errors)
		}
		fmt.Printf("| %s | %s | %s | %s |\n", r.system, kilo(r.perSec), vs, reqs)
	}
}

// kilo writes a rate as the table does (187k, 2.9k).
func kilo(v float64) string {
	switch {
	case v >= 10000:
		return fmt.Sprintf("%.0fk", v/1000)
	case v >= 1000:
		return fmt.Sprintf("%.1fk", v/1000)
	default:
		return fmt.Sprintf("%.0f", v)
	}
}

// loadAverage is the first three fields of /proc/loadavg ("?" elsewhere):
// the machine may be shared, and the figures depend on it.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func defaultVenv() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "trove-bench", "peers-venv")
	}
	return filepath.Join(os.TempDir(), "trove-bench-peers-venv")
}

// hasSystem reports whether the comma-separated list only names system.
func hasSystem(only, system string) bool {
	for _, s := range strings.Split(only, ",") {
		if strings.TrimSpace(s) == system {
			return true
		}
	}
	return false
}
