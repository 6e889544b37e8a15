package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func init() { benches["hostile"] = benchHostile }

// benchHostile starts `trove serve` as a child on a store of many tasks and
// sends a bounded, seeded stream of malformed bodies to every registered
// operation as an ordinary user. It prints the status classes, the answers
// >= 500, hangs, the slowest request and the server's RSS.
func benchHostile(args []string) error {
	fs := flag.NewFlagSet("hostile", flag.ContinueOnError)
	nTasks := fs.Int("tasks", 100000, "tasks in the store")
	nReq := fs.Int("requests", 100000, "hostile requests sent")
	workers := fs.Int("workers", 4, "concurrent clients")
	seed := fs.Int64("seed", 1, "random seed of the request stream")
	timeout := fs.Duration("timeout", 10*time.Second, "client timeout; a request over it is a hang")
	slow := fs.Duration("slow", 2*time.Second, "a request over this is reported as slow")
	db := fs.String("db", "", "postgres:// URL of an empty database (default: SQLite in a temp dir)")
	bin := fs.String("trove", "bin/trove", "the trove binary to run as the server")
	logPath := fs.String("log", "/tmp/trove-hostile.log", "the server's log (kept after the run)")
	samples := fs.Int("samples", 5, "samples printed per finding")
	budget := fs.Duration("for", 0, "stop sending after this long, if the requests are not all sent by then (0 = no bound)")
	keep := fs.String("dir", "", "data dir to run on, kept (a copy of a loaded one skips the bulk load; default: a temp dir, removed)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dir := *keep
	if dir == "" {
		tmp, err := os.MkdirTemp("", "trove-hostile-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}

	start := time.Now()
	ops, err := preload(dir, *db, *nTasks)
	if err != nil {
		return fmt.Errorf("preload: %w", err)
	}
	backend := "sqlite"
	if *db != "" {
		backend = "postgres"
	}
	fmt.Printf("hostile: %d tasks loaded in %.1fs, backend %s, %d operations, %d requests, %d clients, seed %d\n",
		*nTasks, time.Since(start).Seconds(), backend, len(ops), *nReq, *workers, *seed)
	srv, err := startChild(*bin, dir, *db, *logPath)
	if err != nil {
		return err
	}
	defer srv.Stop()
	tok, err := loginBasic(srv.URL, hostileKey, hostileSecret)
	if err != nil {
		return err
	}
	fx, err := makeFixtures(srv.URL, tok)
	if err != nil {
		return fmt.Errorf("fixtures: %w", err)
	}
	rss0, _ := srv.RSS()
	run := hostileRun{N: *nReq, Workers: *workers, Seed: *seed, Timeout: *timeout, Slow: *slow, Samples: *samples, Token: tok}
	if *budget > 0 {
		run.Until = time.Now().Add(*budget)
	}
	res := runHostile(srv, ops, fx, run)
	rss2, peak := srv.RSS()
	res.print(rss0, rss2, peak)
	fmt.Printf("server log: %s\n", *logPath)
	return nil
}

// hostileRun is the shape of one run.
type hostileRun struct {
	N, Workers, Samples int
	Seed                int64
	Timeout, Slow       time.Duration
	Token               string
	// Until, when set, ends the run early (the report says how many were sent).
	Until time.Time
}

// sample is one request worth showing.
type sample struct {
	Op, Kind, Body, Answer string
	Took                   time.Duration
}

func (s sample) String() string {
	return fmt.Sprintf("%s [%s] %.0f ms body=%s -> %s", s.Op, s.Kind, ms(s.Took), clip(s.Body, 200), clip(s.Answer, 300))
}

// hostileResult gathers the figures of a run.
type hostileResult struct {
	mu         sync.Mutex
	classes    map[string]int
	byOp5xx    map[string]int
	byOpSlow   map[string]int // slow answers and hangs per operation
	fatal      []sample       // answers >= 500
	slowS      []sample       // over the slow bound
	hangs      []sample       // over the client timeout
	nSlow      int
	nHang      int
	nFatal     int
	slowest    sample
	relogins   int
	rssMid     float64
	memory     []memPoint // at the start and after every tenth of the requests
	duration   time.Duration
	sampleSize int
}

func (r *hostileResult) add(s sample, status int, err error, slow time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s.Took > r.slowest.Took {
		r.slowest = s
	}
	if err != nil {
		var ne interface{ Timeout() bool }
		if errors.As(err, &ne) && ne.Timeout() {
			r.classes["hang"]++
			r.nHang++
			r.byOpSlow[s.Op]++
			if len(r.hangs) < r.sampleSize {
				r.hangs = append(r.hangs, s)
			}
			return
		}
		r.classes["transport error"]++
		return
	}
	r.classes[fmt.Sprintf("%dxx", status/100)]++
	if status >= 500 {
		r.nFatal++
		r.byOp5xx[s.Op]++
		if len(r.fatal) < r.sampleSize {
			r.fatal = append(r.fatal, s)
		}
	}
	if s.Took > slow {
		r.nSlow++
		r.byOpSlow[s.Op]++
		if len(r.slowS) < r.sampleSize {
			r.slowS = append(r.slowS, s)
		}
	}
}

// runHostile sends run.N requests from run.Workers clients, each with its
// own generator seeded from run.Seed.
func runHostile(srv *childServer, ops []string, fx *fixtures, run hostileRun) *hostileResult {
	client := &http.Client{Timeout: run.Timeout, Transport: &http.Transport{MaxIdleConnsPerHost: run.Workers * 2}}
	res := &hostileResult{classes: map[string]int{}, byOp5xx: map[string]int{}, byOpSlow: map[string]int{}, sampleSize: run.Samples}
	var tokMu sync.Mutex
	token := run.Token
	var done atomic.Int64
	var mid sync.Once
	var wg sync.WaitGroup
	res.memory = append(res.memory, srv.memory(0))
	start := time.Now()
	for w := 0; w < run.Workers; w++ {
		n := run.N / run.Workers
		if w < run.N%run.Workers {
			n++
		}
		wg.Add(1)
		go func(w, n int) {
			defer wg.Done()
			g := &generator{r: rand.New(rand.NewSource(run.Seed + int64(w))), fx: fx, ops: ops}
			for i := 0; i < n; i++ {
				if !run.Until.IsZero() && time.Now().After(run.Until) {
					return
				}
				hb := g.next()
				tokMu.Lock()
				tok := token
				tokMu.Unlock()
				s, status, err := sendHostile(client, srv.URL, tok, hb)
				res.add(s, status, err, run.Slow)
				if status == 401 {
					// A hostile logout ends the session: log in again.
					tokMu.Lock()
					if token == tok {
						if t, err := loginBasic(srv.URL, hostileKey, hostileSecret); err == nil {
							token = t
							res.mu.Lock()
							res.relogins++
							res.mu.Unlock()
						}
					}
					tokMu.Unlock()
				}
				k := done.Add(1)
				if k == int64(run.N/2) {
					mid.Do(func() { res.rssMid, _ = srv.RSS() })
				}
				if step := int64(max(min(run.N/10, 5000), 1)); k%step == 0 {
					p := srv.memory(int(k))
					res.mu.Lock()
					res.memory = append(res.memory, p)
					fmt.Fprintf(os.Stderr, "  %d/%d requests, %.0fs, %d answers >= 500, %d slow, %d hangs\n",
						k, run.N, time.Since(start).Seconds(), res.nFatal, res.nSlow, res.nHang)
					res.mu.Unlock()
				}
			}
		}(w, n)
	}
	wg.Wait()
	res.duration = time.Since(start)
	return res
}

// sendHostile posts one hostile request and returns its sample.
func sendHostile(client *http.Client, base, tok string, hb hostileBody) (sample, int, error) {
	url := base + "/" + hb.Op
	if hb.Query != "" {
		url += "?" + hb.Query
	}
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(hb.Body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok)
	s := sample{Op: hb.Op, Kind: hb.Kind, Body: string(hb.Body)}
	if hb.Query != "" {
		s.Body = "?" + clip(hb.Query, 100) + " " + s.Body
	}
	t0 := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		s.Took = time.Since(t0)
		s.Answer = err.Error()
		return s, 0, err
	}
	ans, err := io.ReadAll(io.LimitReader(resp.Body, 4096))
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	s.Took = time.Since(t0)
	s.Answer = fmt.Sprintf("%d %s", resp.StatusCode, ans)
	return s, resp.StatusCode, err
}

func (r *hostileResult) print(rss0, rss2, peak float64) {
	total := 0
	keys := make([]string, 0, len(r.classes))
	for k, v := range r.classes {
		keys = append(keys, k)
		total += v
	}
	sort.Strings(keys)
	fmt.Printf("%d requests in %.1fs (%.0f req/s), %d re-logins after a hostile logout\n",
		total, r.duration.Seconds(), float64(total)/r.duration.Seconds(), r.relogins)
	for _, k := range keys {
		fmt.Printf("  %-16s %d\n", k, r.classes[k])
	}
	fmt.Printf("answers >= 500: %d\n", r.nFatal)
	printByOp(r.byOp5xx)
	for _, s := range r.fatal {
		fmt.Printf("  sample: %s\n", s)
	}
	fmt.Printf("hangs (over the client timeout): %d\n", r.nHang)
	for _, s := range r.hangs {
		fmt.Printf("  sample: %s\n", s)
	}
	fmt.Printf("slow answers (over the slow bound): %d\n", r.nSlow)
	for _, s := range r.slowS {
		fmt.Printf("  sample: %s\n", s)
	}
	fmt.Printf("slow answers and hangs per operation:\n")
	printByOp(r.byOpSlow)
	fmt.Printf("slowest: %s [%s] %.0f ms\n", r.slowest.Op, r.slowest.Kind, ms(r.slowest.Took))
	fmt.Printf("server RSS: start %.0f MiB, middle %.0f MiB, end %.0f MiB (peak %.0f MiB)\n", rss0, r.rssMid, rss2, peak)
	printMemory(r.memory)
}

// clip shortens s for a report line.
func clip(s string, n int) string {
	s = strings.ToValidUTF8(s, "?")
	if len(s) <= n {
		return s
	}
	return fmt.Sprintf("%s...(%d bytes)", s[:n], len(s))
}

// printByOp prints counts per operation, by name.
func printByOp(counts map[string]int) {
	ops := make([]string, 0, len(counts))
	for op := range counts {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	for _, op := range ops {
		fmt.Printf("  %-50s %d\n", op, counts[op])
	}
}
