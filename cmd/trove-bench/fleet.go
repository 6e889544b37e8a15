package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/trove-ml/trove/internal/app"
	"github.com/trove-ml/trove/internal/auth"
)

func init() { benches["fleet"] = benchFleet }

// benchFleet measures many small concurrent writers: n experiments, each
// reporting `scalars` scalar events in one events.add_batch every
// `interval`, each call over a new connection with Connection: close, as
// the clearml SDK's reporter does. Every experiment has its own task
// (created before the run) and its own session token.
func benchFleet(args []string) error {
	fs := flag.NewFlagSet("fleet", flag.ContinueOnError)
	db := fs.String("db", "", "postgres:// URL of an empty database (default: SQLite in a temp dir)")
	n := fs.Int("n", 1000, "experiments reporting at once")
	dur := fs.Duration("duration", 30*time.Second, "how long the experiments report")
	interval := fs.Duration("interval", 2*time.Second, "time between two batches of one experiment")
	scalars := fs.Int("scalars", 50, "scalar events per batch")
	timeout := fs.Duration("timeout", 30*time.Second, "client timeout of one call")
	profile := fs.String("cpuprofile", "", "write a CPU profile of the reporting phase to this file")
	traceOut := fs.String("trace", "", "write an execution trace of 3 s, halfway through the reporting phase, to this file (go tool trace)")
	waits := fs.String("waitprofile", "", "write where every goroutine is, halfway through the reporting phase, to this file (text)")
	spawn := fs.String("server", "", "run this trove binary as `trove serve` in a child process and report to it (default: a server inside this process)")
	api := fs.String("api", "clearml", "the API the experiments report through: clearml (events.add_batch, a session token) or mlflow (runs/log-batch, HTTP Basic with an access key and secret; see fleet_mlflow.go)")
	history := fs.Int64("history", 0, "iterations every experiment has already reported before the measured phase (sent first, 100 a request): long series, as after minutes of training")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *api != "clearml" && *api != "mlflow" {
		return fmt.Errorf("-api: clearml or mlflow, not %q", *api)
	}
	cfg := fleetConfig{n: *n, dur: *dur, interval: *interval, scalars: *scalars, timeout: *timeout, history: *history, api: *api}
	if *spawn != "" {
		return fleetOnChild(*spawn, *db, cfg)
	}
	f, err := startFleetServer(*db)
	if err != nil {
		return err
	}
	defer f.close()
	fmt.Printf("fleet benchmark: backend %s, GOMAXPROCS=%d, %s\n", f.a.DB.D.Name(), runtime.GOMAXPROCS(0), cfg)
	f.api = cfg.api
	var exps []experiment
	if cfg.api == "mlflow" {
		exps, err = mlflowExperiments(f.url, *n)
	} else {
		exps, err = f.experiments(*n)
	}
	if err != nil {
		return err
	}
	meter := postgresMeter(*db)
	if err := f.fillHistory(exps, cfg); err != nil {
		return err
	}
	if cfg.history > 0 {
		settle(cpuTime, meter)
	}
	if *profile != "" {
		pf, err := os.Create(*profile)
		if err != nil {
			return err
		}
		defer pf.Close()
		if pprof.StartCPUProfile(pf) == nil {
			defer pprof.StopCPUProfile()
		}
	}
	if *waits != "" {
		// CPU profiles do not show waiting; halfway through, the stacks of
		// the parked callers show what they queue for.
		time.AfterFunc(*dur/2, func() { writeGoroutines(*waits) })
	}
	if *traceOut != "" {
		time.AfterFunc(*dur/2, func() { writeTrace(*traceOut, 3*time.Second) })
	}
	load0 := loadAverage()
	cpu0, db0 := cpuTime(), meter.mark()
	res := f.report(exps, cfg)
	cpu, db1 := cpuTime()-cpu0, meter.mark()
	res.print(cfg)
	fmt.Printf("process CPU (server and clients): %.1f s over %.1f s = %.2f cores, %.2f ms per acknowledged batch; load average %s -> %s\n",
		cpu.Seconds(), res.elapsed.Seconds(), cpu.Seconds()/res.elapsed.Seconds(), 1000*cpu.Seconds()/float64(max(1, res.acked.Load())), load0, loadAverage())
	printDatabaseCPU(meter, db0, db1, res)
	return nil
}

// fleetServer is Trove serving on loopback with the settings of `trove
// serve`, its background jobs running.
type fleetServer struct {
	a        *app.App
	url      string
	srv      *http.Server
	dir      string
	stopJobs func()
	jobs     sync.WaitGroup
	// api is what the experiments report through ("clearml" or "mlflow")
	api string
}

func startFleetServer(db string) (*fleetServer, error) {
	a, dir, err := newBenchApp(db)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		a.Close()
		os.RemoveAll(dir)
		return nil, err
	}
	f := &fleetServer{a: a, url: "http://" + ln.Addr().String(), dir: dir}
	f.srv = &http.Server{Handler: a.Handler, ReadHeaderTimeout: 30 * time.Second, IdleTimeout: 120 * time.Second}
	go func() { _ = f.srv.Serve(ln) }()
	ctx, stop := context.WithCancel(context.Background())
	f.stopJobs = stop
	a.StartJobs(ctx, &f.jobs)
	return f, nil
}

func (f *fleetServer) close() {
	_ = f.srv.Close()
	f.stopJobs()
	f.jobs.Wait()
	f.a.Close()
	os.RemoveAll(f.dir)
}

// experiment is one reporting training run: its task and its token.
type experiment struct {
	task, token string
	// basic is the Authorization header of MLflow's calls (-api mlflow);
	// task is then the run's id
	basic string
}

// experiments creates n tasks (in progress, through the store: the tasks
// service is not what is measured) and a session token for each, minted
// for the admin's identity as auth.login would (without n bcrypt checks).
func (f *fleetServer) experiments(n int) ([]experiment, error) {
	tok, err := benchLogin(f.url)
	if err != nil {
		return nil, err
	}
	id, err := f.a.Deps.Auth.VerifyToken(context.Background(), tok)
	if err != nil {
		return nil, err
	}
	fresh := auth.Identity{UserID: id.UserID, UserName: id.UserName, CompanyID: id.CompanyID, CompanyName: id.CompanyName, Role: id.Role,
		AccessKey: id.AccessKey, TokenGeneration: id.TokenGeneration}
	eb := &eventsBench{a: f.a}
	out := make([]experiment, n)
	for i := range out {
		if out[i].task, err = eb.newTask(fmt.Sprintf("fleet %d", i)); err != nil {
			return nil, err
		}
		if out[i].token, err = f.a.Deps.Auth.IssueToken(&fresh, 0); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// fleetResult gathers the calls of a fleet run.
type fleetResult struct {
	mu  sync.Mutex
	lat []time.Duration
	// first is the latency of each experiment's first batch, which
	// creates its series and adds its metric names; later, the others'
	first, later []time.Duration
	sent         atomic.Int64
	acked        atomic.Int64
	failures     map[string]int
	elapsed      time.Duration
}

func (r *fleetResult) fail(why string) {
	r.mu.Lock()
	r.failures[why]++
	r.mu.Unlock()
}

// report runs the experiments for cfg.dur: each sends a batch every
// interval (the first at a random point of the first interval), from
// iteration cfg.history on; a batch that is late leaves at once, none is
// skipped.
func (f *fleetServer) report(exps []experiment, cfg fleetConfig) *fleetResult {
	interval, scalars := cfg.interval, cfg.scalars
	client := &http.Client{Timeout: cfg.timeout, Transport: &http.Transport{DisableKeepAlives: true, MaxConnsPerHost: 0}}
	res := &fleetResult{failures: map[string]int{}}
	start := time.Now()
	end := start.Add(cfg.dur)
	var wg sync.WaitGroup
	for i := range exps {
		wg.Add(1)
		go func(e experiment) {
			defer wg.Done()
			next := start.Add(time.Duration(rand.Int64N(int64(interval))))
			var lat, first, later []time.Duration
			for iter := cfg.history; next.Before(end); iter++ {
				time.Sleep(time.Until(next))
				next = next.Add(interval)
				var req *http.Request
				if f.api == "mlflow" {
					req = f.mlflowBatchRequest(e, iter, iter+1, scalars)
				} else {
					req = f.batchRequest(e, fleetLines(e.task, iter, scalars))
				}
				req.Close = true // Connection: close, as the SDK asks
				res.sent.Add(1)
				t0 := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					res.fail("transport: " + trimErr(err))
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					res.fail("HTTP " + strconv.Itoa(resp.StatusCode))
					continue
				}
				took := time.Since(t0)
				lat = append(lat, took)
				if iter == cfg.history {
					first = append(first, took)
				} else {
					later = append(later, took)
				}
				res.acked.Add(1)
			}
			res.mu.Lock()
			res.lat = append(res.lat, lat...)
			res.first = append(res.first, first...)
			res.later = append(res.later, later...)
			res.mu.Unlock()
		}(exps[i])
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	return res
}

// batchRequest is an events.add_batch of an experiment's lines.
func (f *fleetServer) batchRequest(e experiment, body []byte) *http.Request {
	req, _ := http.NewRequest(http.MethodPost, f.url+"/events.add_batch", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json-lines")
	req.Header.Set("Authorization", "Bearer "+e.token)
	return req
}

func (r *fleetResult) print(cfg fleetConfig) {
	scalars := cfg.scalars
	sort.Slice(r.lat, func(i, j int) bool { return r.lat[i] < r.lat[j] })
	offered := float64(cfg.n) / cfg.interval.Seconds()
	fmt.Printf("batches: sent %d, acknowledged %d, failed %d (offered %.0f batches/s, acknowledged %.0f batches/s = %.0f scalars/s)\n",
		r.sent.Load(), r.acked.Load(), r.sent.Load()-r.acked.Load(), offered,
		float64(r.acked.Load())/r.elapsed.Seconds(), float64(r.acked.Load())*float64(scalars)/r.elapsed.Seconds())
	for why, c := range r.failures {
		fmt.Printf("  failure %q: %d\n", why, c)
	}
	if len(r.lat) > 0 {
		l := r.lat
		fmt.Printf("batch latency: p50 %.1f ms  p99 %.1f ms  max %.1f ms\n", ms(l[len(l)/2]), ms(l[len(l)*99/100]), ms(l[len(l)-1]))
		fmt.Printf("  each experiment's first batch: %s; later batches: %s\n", latencySummary(r.first), latencySummary(r.later))
	}
}

// latencySummary is "p50 / p99 / max over n calls" of l (sorted here).
func latencySummary(l []time.Duration) string {
	if len(l) == 0 {
		return "none"
	}
	slices.Sort(l)
	return fmt.Sprintf("p50 %.1f ms, p99 %.1f ms, max %.1f ms over %d", ms(l[len(l)/2]), ms(l[len(l)*99/100]), ms(l[len(l)-1]), len(l))
}

// fleetLines is one batch of an experiment: scalars events of iteration
// iter over 5 metrics x (scalars/5) variants, in the SDK's line shape.
func fleetLines(task string, iter int64, scalars int) []byte {
	buf := make([]byte, 0, scalars*170)
	ts := time.Now().UnixMilli()
	for i := 0; i < scalars; i++ {
		if i > 0 {
			buf = append(buf, '\n')
		}
		buf = append(buf, `{"timestamp":`...)
		buf = strconv.AppendInt(buf, ts, 10)
		buf = append(buf, `,"type":"training_stats_scalar","task":"`...)
		buf = append(buf, task...)
		buf = append(buf, `","iter":`...)
		buf = strconv.AppendInt(buf, iter, 10)
		buf = append(buf, `,"metric":"metric`...)
		buf = strconv.AppendInt(buf, int64(i%5), 10)
		buf = append(buf, `","variant":"v`...)
		buf = strconv.AppendInt(buf, int64(i/5), 10)
		buf = append(buf, `","value":`...)
		buf = strconv.AppendFloat(buf, float64((iter*31+int64(i))%1000)/997, 'g', -1, 64)
		buf = append(buf, '}')
	}
	return buf
}

func trimErr(err error) string {
	s := err.Error()
	if len(s) > 80 {
		s = s[len(s)-80:]
	}
	return s
}

// cpuTime is this process's user + system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// writeGoroutines writes the stacks of all goroutines, grouped, to path.
func writeGoroutines(path string) {
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "waitprofile:", err)
		return
	}
	defer f.Close()
	_ = pprof.Lookup("goroutine").WriteTo(f, 1)
}

// writeTrace records an execution trace of d to path: where goroutines
// wait (scheduler, syscalls, channels), which a CPU profile cannot show.
func writeTrace(path string, d time.Duration) {
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "trace:", err)
		return
	}
	defer f.Close()
	if err := trace.Start(f); err != nil {
		fmt.Fprintln(os.Stderr, "trace:", err)
		return
	}
	time.Sleep(d)
	trace.Stop()
}
