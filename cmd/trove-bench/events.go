package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/trove-ml/trove/internal/app"
	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

func init() { benches["events"] = benchEvents }

// benchEvents measures the events service on volume:
//   - ingest: events.add_batch with `batch` scalar events per request from
//     `workers` clients (each its own task) for `duration`, and in the same
//     run the rate of inserting the same rows straight into the database
//     (multi-row INSERTs, one transaction per batch, as many writers);
//   - histogram: scalar_metrics_iter_histogram (samples 6000) over one task
//     of `series` series x `points` points;
//   - log: get_task_log first (newest) and last (oldest) page of a task
//     with `logs` lines.
func benchEvents(args []string) error {
	fs := flag.NewFlagSet("events", flag.ContinueOnError)
	db := fs.String("db", "", "postgres:// URL of an empty database (default: SQLite in a temp dir)")
	dur := fs.Duration("duration", 20*time.Second, "duration of each ingest run")
	workers := fs.Int("workers", 4, "concurrent ingest clients")
	batch := fs.Int("batch", 1000, "scalar events per add_batch request")
	series := fs.Int("series", 4, "series of the histogram task")
	points := fs.Int("points", 250000, "points per series of the histogram task")
	samples := fs.Int("samples", 6000, "histogram samples")
	queries := fs.Int("queries", 100, "histogram and log calls measured")
	logs := fs.Int("logs", 1000000, "log lines of the log task")
	rounds := fs.Int("rounds", 1, "ingest: alternate add_batch and the raw insert this many times (each duration/rounds) and report the median ratio; steadier on a shared machine")
	only := fs.String("only", "ingest,histogram,log", "parts to run")
	profile := fs.String("cpuprofile", "", "write a CPU profile of the measured calls (add_batch load, histogram and log calls) to this file")
	traceOut := fs.String("trace", "", "write an execution trace of 3 s, halfway through the first add_batch half, to this file (go tool trace)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "trove-bench-events-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	cfg := config.Defaults()
	cfg.DataDir, cfg.DB = dir, *db
	cfg.AdminKey, cfg.AdminSecret = "BENCHKEY", "bench-secret"
	a, err := app.New(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		return err
	}
	defer a.Close()
	srv := httptest.NewServer(a.Handler)
	defer srv.Close()
	// the background jobs run as in a served Trove (the rollup job among them)
	jobsCtx, stopJobs := context.WithCancel(context.Background())
	var jobs sync.WaitGroup
	a.StartJobs(jobsCtx, &jobs)
	defer func() {
		stopJobs()
		jobs.Wait()
	}()
	b := &eventsBench{a: a, url: srv.URL, trace: *traceOut}
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			return err
		}
		defer f.Close()
		b.profile = f
	}
	if b.token, err = benchLogin(srv.URL); err != nil {
		return err
	}
	fmt.Printf("events benchmark: backend %s, GOMAXPROCS=%d\n", a.DB.D.Name(), runtime.GOMAXPROCS(0))
	if strings.Contains(*only, "ingest") {
		if err := b.ingestRounds(*dur, *workers, *batch, *rounds); err != nil {
			return err
		}
	}
	if strings.Contains(*only, "histogram") {
		if err := b.histogram(*series, *points, *samples, *queries); err != nil {
			return err
		}
	}
	if strings.Contains(*only, "log") {
		if err := b.log(*logs, *queries); err != nil {
			return err
		}
	}
	return nil
}

type eventsBench struct {
	a       *app.App
	url     string
	token   string
	profile *os.File
	// trace is where the first ingest half writes an execution trace ("" for none)
	trace string
}

// measured runs fn under the CPU profile, when one is asked for.
func (b *eventsBench) measured(fn func()) {
	if b.profile != nil && pprof.StartCPUProfile(b.profile) == nil {
		defer pprof.StopCPUProfile()
	}
	fn()
}

func benchLogin(url string) (string, error) {
	return loginBasic(url, "BENCHKEY", "bench-secret")
}

// newTask creates a task through the store (the tasks service is not what
// is measured) and returns its id.
func (b *eventsBench) newTask(name string) (string, error) {
	now := jsonx.Now()
	t := &store.Task{ID: ids.New(), Company: "d1bd92a3b039400cbafc60a7a5b1e52b", User: "__admin__", Name: name,
		Type: "training", Status: "in_progress", Created: now, LastUpdate: now, LastChange: now, Started: &now}
	t.Normalize()
	return t.ID, b.a.DB.Tasks().Insert(context.Background(), b.a.DB.Write(), t)
}

// scalarLines appends n scalar event lines of a task: 4 series, iterations
// from *iter on.
func scalarLines(buf []byte, task string, n int, iter *int64) []byte {
	ts := time.Now().UnixMilli()
	for i := 0; i < n; i++ {
		if i > 0 {
			buf = append(buf, '\n')
		}
		it := *iter + int64(i/4)
		buf = append(buf, `{"timestamp":`...)
		buf = strconv.AppendInt(buf, ts, 10)
		buf = append(buf, `,"type":"training_stats_scalar","task":"`...)
		buf = append(buf, task...)
		buf = append(buf, `","iter":`...)
		buf = strconv.AppendInt(buf, it, 10)
		buf = append(buf, `,"metric":"loss","variant":"series`...)
		buf = strconv.AppendInt(buf, int64(i%4), 10)
		buf = append(buf, `","value":`...)
		buf = strconv.AppendFloat(buf, float64(it%1000)/997, 'g', -1, 64)
		buf = append(buf, `,"allow_locked":false,"model_event":false}`...)
	}
	*iter += int64((n + 3) / 4)
	return buf
}

func (b *eventsBench) post(path, contentType string, body []byte) *http.Request {
	req, _ := http.NewRequest(http.MethodPost, b.url+"/"+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Authorization", "Bearer "+b.token)
	return req
}

// ingestTasks are the clients' tasks and their next iterations, kept
// across rounds.
type ingestTasks struct {
	ids   []string
	iters []int64
}

func (b *eventsBench) ingestTasks(workers int) (*ingestTasks, error) {
	t := &ingestTasks{ids: make([]string, workers), iters: make([]int64, workers)}
	for i := range t.ids {
		var err error
		if t.ids[i], err = b.newTask(fmt.Sprintf("ingest %d", i)); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// ingestRounds runs the ingest comparison once, or in rounds that
// alternate the two halves, so that a neighbour's load falls on both.
func (b *eventsBench) ingestRounds(d time.Duration, workers, batch, rounds int) error {
	t, err := b.ingestTasks(workers)
	if err != nil {
		return err
	}
	rounds = max(1, rounds)
	ratios := make([]float64, 0, rounds)
	for r := 0; r < rounds; r++ {
		if rounds > 1 {
			fmt.Printf("round %d of %d:\n", r+1, rounds)
		}
		ratio, err := b.ingest(d/time.Duration(rounds), workers, batch, t, r)
		if err != nil {
			return err
		}
		ratios = append(ratios, ratio)
	}
	if rounds > 1 {
		sort.Float64s(ratios)
		fmt.Printf("median ratio over %d rounds: add_batch = %.0f%% of the raw insert rate (lowest %.0f%%, highest %.0f%%)\n",
			rounds, 100*ratios[rounds/2], 100*ratios[0], 100*ratios[rounds-1])
	}
	return nil
}

// ingest measures add_batch and then the raw insert of the same rows, and
// returns the ratio of their rates. round keeps the raw rows of each
// round apart.
func (b *eventsBench) ingest(d time.Duration, workers, batch int, t *ingestTasks, round int) (float64, error) {
	tasks, iters := t.ids, t.iters
	// each client reports to its own task, one batch after the other, as
	// a training process does
	mk := func(w int) *http.Request {
		body := scalarLines(make([]byte, 0, batch*170), tasks[w], batch, &iters[w])
		return b.post("events.add_batch", "application/json-lines", body)
	}
	var res loadResult
	if b.trace != "" && round == 0 {
		time.AfterFunc(d/2, func() { writeTrace(b.trace, min(3*time.Second, d/3)) })
	}
	cpu0 := cpuTime()
	b.measured(func() { res = runLoad(d, workers, mk) })
	apiCPU := cpuTime() - cpu0
	api := res.PerSecond * float64(batch)
	fmt.Printf("ingest events.add_batch (%d clients, %d scalars/request, %s): %.0f events/s  (%s)\n", workers, batch, d, api, res)

	cpu0 = cpuTime()
	raw, rawRows, err := b.rawInsert(d, workers, batch, round)
	if err != nil {
		return 0, err
	}
	rawCPU := cpuTime() - cpu0
	how := "multi-row INSERT"
	if b.a.DB.D.Name() == "postgres" {
		how = "COPY"
	}
	fmt.Printf("raw %s of the same rows (%d writers, %d rows/transaction): %.0f rows/s\n", how, workers, batch, raw)
	if raw > 0 {
		fmt.Printf("ratio: add_batch = %.0f%% of the raw insert rate\n", 100*api/raw)
	}
	// On a shared machine the rates follow the neighbours' load; the CPU
	// this process spent per point does not (the add_batch half counts
	// the clients' JSON and HTTP too).
	apiPer := float64(apiCPU.Microseconds()) / float64(max(1, (res.Requests-res.Errors)*batch))
	rawPer := float64(rawCPU.Microseconds()) / float64(max(1, rawRows))
	fmt.Printf("CPU per point: add_batch %.2f us (server and clients), raw %.2f us; raw/add_batch = %.0f%%; load average %s\n",
		apiPer, rawPer, 100*rawPer/apiPer, loadAverage())
	if raw <= 0 {
		return 0, nil
	}
	return api / raw, nil
}

// rawInsert writes the rows add_batch stores for scalars straight into
// event_scalars: one transaction per batch (128-row statements on SQLite,
// one COPY on PostgreSQL), rows in the order add_batch writes them (by
// series, then iteration).
func (b *eventsBench) rawInsert(d time.Duration, workers, batch, round int) (float64, int64, error) {
	db := b.a.DB
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var rows atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	start := time.Now()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			series := int64(1_000_000_000 + round*1000 + w*8)
			iter := int64(0)
			base := time.Now().UnixMilli()
			for ctx.Err() == nil {
				ts := time.Now().UnixMilli()
				per := (batch + 3) / 4
				points := make([]rawScalar, batch)
				for j := range points {
					// rows ordered by series, as add_batch writes them
					it := iter + int64(j%per)
					points[j] = rawScalar{Series: series + int64(j/per), Iter: it, Value: float64(it%1000) / 997, TS: ts, WTS: ts, TS0: base}
				}
				// the batch's own transaction (SQLite) or COPY (PostgreSQL)
				err := bulkRawScalars(context.Background(), db, points)
				if err != nil {
					if ctx.Err() == nil {
						errs <- err
					}
					return
				}
				iter += int64((batch + 3) / 4)
				rows.Add(int64(batch))
			}
		}(w)
	}
	wg.Wait()
	select {
	case err := <-errs:
		return 0, 0, err
	default:
	}
	return float64(rows.Load()) / time.Since(start).Seconds(), rows.Load(), nil
}

// load reports lines to a task in requests of 5000 from 2 clients.
func (b *eventsBench) load(total int, line func(buf []byte, i int) []byte) error {
	const per = 5000
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				lo := int(next.Add(per)) - per
				if lo >= total {
					return
				}
				var buf []byte
				for i := lo; i < min(lo+per, total); i++ {
					if i > lo {
						buf = append(buf, '\n')
					}
					buf = line(buf, i)
				}
				if err := doJSON(b.post("events.add_batch", "application/json-lines", buf), &struct{}{}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
		return nil
	}
}

func (b *eventsBench) histogram(series, points, samples, queries int) error {
	task, err := b.newTask("histogram")
	if err != nil {
		return err
	}
	start := time.Now()
	err = b.load(series*points, func(buf []byte, i int) []byte {
		it := int64(i / series)
		buf = append(buf, `{"type":"training_stats_scalar","task":"`...)
		buf = append(buf, task...)
		buf = append(buf, `","iter":`...)
		buf = strconv.AppendInt(buf, it, 10)
		buf = append(buf, `,"metric":"loss","variant":"s`...)
		buf = strconv.AppendInt(buf, int64(i%series), 10)
		buf = append(buf, `","value":`...)
		buf = strconv.AppendFloat(buf, float64(it%5000)/4999, 'g', -1, 64)
		return append(buf, '}')
	})
	if err != nil {
		return err
	}
	fmt.Printf("histogram task: %d series x %d points loaded in %.1fs\n", series, points, time.Since(start).Seconds())
	// let the rollup job catch up, as it does within seconds on a server
	if err := (&events.Roller{DB: b.a.DB}).Run(context.Background()); err != nil {
		return err
	}
	body := []byte(fmt.Sprintf(`{"task":%q,"samples":%d,"key":"iter"}`, task, samples))
	var env struct {
		Data map[string]map[string]struct {
			X []int64 `json:"x"`
		} `json:"data"`
	}
	if err := doJSON(b.post("events.scalar_metrics_iter_histogram", "application/json", body), &env); err != nil {
		return err
	}
	fmt.Printf("first call: %d series, %d buckets in s0\n", len(env.Data["loss"]), len(env.Data["loss"]["s0"].X))
	// CPU per call, this process's (server and client) and the database
	// server's: steadier than latencies when neighbours share the cores
	pid, err := serverPID(context.Background(), b.a.DB)
	if err != nil {
		return err
	}
	meter := newCPUMeter(pid)
	var lat []time.Duration
	before, load := meter.mark(), loadAverage()
	b.measured(func() {
		lat = timeCalls(queries, func() error {
			return doJSON(b.post("events.scalar_metrics_iter_histogram", "application/json", body), &struct{}{})
		})
	})
	if lat == nil {
		return fmt.Errorf("histogram calls failed")
	}
	after := meter.mark()
	perCall := func(d time.Duration) float64 { return ms(d) / float64(queries) }
	fmt.Printf("scalar_metrics_iter_histogram (samples %d), %d calls: p50 %.2f ms  p99 %.2f ms; CPU per call: Trove and client %.2f ms, database server %.2f ms; load %s\n",
		samples, queries, ms(lat[len(lat)/2]), ms(lat[len(lat)*99/100]), perCall(after.self-before.self), perCall(after.server-before.server), load)
	return nil
}

func (b *eventsBench) log(lines, queries int) error {
	task, err := b.newTask("log")
	if err != nil {
		return err
	}
	base := time.Now().Add(-time.Duration(lines) * time.Millisecond).UnixMilli()
	start := time.Now()
	err = b.load(lines, func(buf []byte, i int) []byte {
		buf = append(buf, `{"type":"log","task":"`...)
		buf = append(buf, task...)
		buf = append(buf, `","timestamp":`...)
		buf = strconv.AppendInt(buf, base+int64(i), 10)
		buf = append(buf, `,"level":"info","worker":"bench","msg":"line `...)
		buf = strconv.AppendInt(buf, int64(i), 10)
		return append(buf, ` of the console output of a long training run"}`...)
	})
	if err != nil {
		return err
	}
	fmt.Printf("log task: %d lines loaded in %.1fs\n", lines, time.Since(start).Seconds())
	for _, page := range []struct{ name, body string }{
		{"first page (newest, navigate_earlier)", fmt.Sprintf(`{"task":%q,"batch_size":500}`, task)},
		{"last page (oldest, navigate_earlier false)", fmt.Sprintf(`{"task":%q,"batch_size":500,"navigate_earlier":false}`, task)},
		{"middle page (from_timestamp)", fmt.Sprintf(`{"task":%q,"batch_size":500,"from_timestamp":%d}`, task, base+int64(lines/2))},
	} {
		var lat []time.Duration
		b.measured(func() {
			lat = timeCalls(queries, func() error {
				return doJSON(b.post("events.get_task_log", "application/json", []byte(page.body)), &struct{}{})
			})
		})
		if lat == nil {
			return fmt.Errorf("get_task_log calls failed")
		}
		fmt.Printf("get_task_log %s, batch 500, %d calls: p50 %.2f ms  p99 %.2f ms\n", page.name, queries, ms(lat[len(lat)/2]), ms(lat[len(lat)*99/100]))
	}
	return nil
}

// timeCalls runs fn n times one after the other and returns the sorted
// latencies (nil on a failure).
func timeCalls(n int, fn func() error) []time.Duration {
	lat := make([]time.Duration, 0, n)
	for i := 0; i < n; i++ {
		t0 := time.Now()
		if err := fn(); err != nil {
			fmt.Println("error:", err)
			return nil
		}
		lat = append(lat, time.Since(t0))
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	return lat
}
