package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/trove-ml/trove/internal/events"
)

func init() { benches["scale"] = benchScale }

// benchScale ingests tasks x series x iterations scalar points through
// events.add_batch and measures Trove at that size: the ingest rate per
// tenth of the load, bytes per stored point, histograms of a 1M-point
// task, task lists with metric columns, and ingest latency while a large
// task is deleted.
func benchScale(args []string) error {
	fs := flag.NewFlagSet("scale", flag.ContinueOnError)
	db := fs.String("db", "", "postgres:// URL of an empty database (default: SQLite in a temp dir)")
	preset := fs.String("preset", "10m", "10m (100 tasks x 20 series x 5,000 iterations, 1M-point deleted task) or 100m (1,000 tasks, 10M-point deleted task)")
	tasks := fs.Int("tasks", 0, "tasks (overrides the preset)")
	series := fs.Int("series", 20, "series per task")
	iters := fs.Int("iters", 5000, "iterations per series")
	workers := fs.Int("workers", 4, "concurrent ingest clients")
	batch := fs.Int("batch", 1000, "points per add_batch request (a multiple of -series)")
	histPoints := fs.Int("histpoints", 1000000, "points of the histogram task")
	histSeries := fs.Int("histseries", 4, "series of the histogram task")
	deletePoints := fs.Int("deletepoints", 0, "points of the deleted task (overrides the preset)")
	samples := fs.Int("samples", 6000, "histogram samples")
	queries := fs.Int("queries", 50, "calls per read measure")
	if err := fs.Parse(args); err != nil {
		return err
	}
	nTasks, nDelete := 100, 1000000
	if *preset == "100m" {
		nTasks, nDelete = 1000, 10000000
	}
	if *tasks > 0 {
		nTasks = *tasks
	}
	if *deletePoints > 0 {
		nDelete = *deletePoints
	}
	if *batch%*series != 0 {
		return fmt.Errorf("-batch %d is not a multiple of -series %d", *batch, *series)
	}
	f, err := startFleetServer(*db)
	if err != nil {
		return err
	}
	defer f.close()
	tok, err := benchLogin(f.url)
	if err != nil {
		return err
	}
	s := &scaleBench{f: f, token: tok, series: *series, eb: &eventsBench{a: f.a, url: f.url, token: tok},
		client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *workers * 2}}}
	total := nTasks * *series * *iters
	fmt.Printf("scale benchmark: backend %s, GOMAXPROCS=%d, %d tasks x %d series x %d iterations = %d points, %d clients, %d points/request, load average %s\n",
		f.a.DB.D.Name(), runtime.GOMAXPROCS(0), nTasks, *series, *iters, total, *workers, *batch, loadAverage())
	ctx := context.Background()
	before, err := usedBytes(ctx, f.a.DB)
	if err != nil {
		return err
	}
	ids := make([]string, nTasks)
	for i := range ids {
		if ids[i], err = s.eb.newTask(fmt.Sprintf("scale %d", i)); err != nil {
			return err
		}
	}
	if err := s.ingest(ids, *iters, *workers, *batch); err != nil {
		return err
	}
	after, err := usedBytes(ctx, f.a.DB)
	if err != nil {
		return err
	}
	fmt.Printf("stored: %.1f MB more for %d points = %.1f bytes per point (points, series, rollups and indexes)\n",
		float64(after-before)/1e6, total, float64(after-before)/float64(total))
	if err := printTableBytes(ctx, f, total); err != nil {
		return err
	}
	hs := *s
	hs.series = *histSeries
	if err := hs.histogram(*histPoints, *samples, *queries); err != nil {
		return err
	}
	if err := s.taskList(*queries); err != nil {
		return err
	}
	return s.deleteWhileIngesting(ids, *iters, nDelete, *workers, *batch)
}

type scaleBench struct {
	f      *fleetServer
	eb     *eventsBench
	token  string
	series int
	client *http.Client
}

// lines appends the points of iterations [from, from+n) of every series
// of a task.
func (s *scaleBench) lines(buf []byte, task string, from, n int) []byte {
	ts := time.Now().UnixMilli()
	for it := from; it < from+n; it++ {
		for k := 0; k < s.series; k++ {
			if len(buf) > 0 {
				buf = append(buf, '\n')
			}
			buf = append(buf, `{"timestamp":`...)
			buf = strconv.AppendInt(buf, ts, 10)
			buf = append(buf, `,"type":"training_stats_scalar","task":"`...)
			buf = append(buf, task...)
			buf = append(buf, `","iter":`...)
			buf = strconv.AppendInt(buf, int64(it), 10)
			buf = append(buf, `,"metric":"metric`...)
			buf = strconv.AppendInt(buf, int64(k%5), 10)
			buf = append(buf, `","variant":"v`...)
			buf = strconv.AppendInt(buf, int64(k/5), 10)
			buf = append(buf, `","value":`...)
			buf = strconv.AppendFloat(buf, float64((it*31+k)%1000)/997, 'g', -1, 64)
			buf = append(buf, '}')
		}
	}
	return buf
}

// send posts one add_batch and returns its latency.
func (s *scaleBench) send(body []byte) (time.Duration, error) {
	req, _ := http.NewRequest(http.MethodPost, s.f.url+"/events.add_batch", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json-lines")
	req.Header.Set("Authorization", "Bearer "+s.token)
	t0 := time.Now()
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, err
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		return 0, fmt.Errorf("add_batch: %d %s", resp.StatusCode, b)
	}
	return time.Since(t0), nil
}

// ingest reports every task's iterations [0, iters) and prints the rate
// of each tenth of the points.
func (s *scaleBench) ingest(ids []string, iters, workers, batch int) error {
	total := int64(len(ids) * s.series * iters)
	var done int64
	var mu sync.Mutex
	pid, err := serverPID(context.Background(), s.f.a.DB)
	if err != nil {
		return err
	}
	meter := newCPUMeter(pid)
	marks := []time.Time{time.Now()}
	cpus := []cpuMark{meter.mark()}
	loads := []string{loadAverage()}
	var lat []time.Duration
	err = s.report(ids, 0, iters, workers, batch, func(points int, d time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		done += int64(points)
		lat = append(lat, d)
		for len(marks) <= 10 && done >= total*int64(len(marks))/10 {
			marks = append(marks, time.Now())
			cpus = append(cpus, meter.mark())
			loads = append(loads, loadAverage())
		}
	})
	if err != nil {
		return err
	}
	el := marks[len(marks)-1].Sub(marks[0])
	fmt.Printf("ingest: %d points in %.1f s = %.0f points/s; add_batch %s\n", total, el.Seconds(), float64(total)/el.Seconds(), percentiles(lat))
	fmt.Print("rate per tenth (points/s):")
	var rates []float64
	for i := 1; i < len(marks); i++ {
		r := float64(total) / 10 / marks[i].Sub(marks[i-1]).Seconds()
		rates = append(rates, r)
		fmt.Printf(" %.0f", r)
	}
	if len(rates) == 10 {
		fmt.Printf("\nlast tenth / first tenth: %.0f%%\n", 100*rates[9]/rates[0])
	} else {
		fmt.Println()
	}
	// CPU per point of each tenth: a tenth slowed by the machine's other
	// load costs the same CPU; one doing more work per point costs more.
	for i := 1; i < len(cpus); i++ {
		fmt.Printf("tenth %d: %.0f points/s, CPU per point %s, load average %s\n", i, rates[i-1], perPoint(cpus[i-1], cpus[i], total/10), loads[i])
	}
	return nil
}

// loadTask reports points points to a new task, 5000-line requests
// from 2 clients, and returns its id.
func (s *scaleBench) loadTask(name string, points int) (string, error) {
	id, err := s.eb.newTask(name)
	if err != nil {
		return "", err
	}
	return id, s.report([]string{id}, 0, points/s.series, 2, 5000-5000%s.series, nil)
}

// report sends iterations [from, from+iters) of every task from workers
// clients, batch points a request, all tasks advancing together (request
// k goes to task k mod tasks); acked (if not nil) sees each request's
// points and latency.
func (s *scaleBench) report(ids []string, from, iters, workers, batch int, acked func(points int, d time.Duration)) error {
	per := batch / s.series
	jobs := len(ids) * ((iters + per - 1) / per)
	var next atomic.Int64
	errc := make(chan error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for {
				j := int(next.Add(1)) - 1
				if j >= jobs {
					return
				}
				off := (j / len(ids)) * per
				n := min(per, iters-off)
				buf = s.lines(buf[:0], ids[j%len(ids)], from+off, n)
				d, err := s.send(buf)
				if err != nil {
					errc <- err
					return
				}
				if acked != nil {
					acked(n*s.series, d)
				}
			}
		}()
	}
	wg.Wait()
	select {
	case err := <-errc:
		return err
	default:
		return nil
	}
}

func (s *scaleBench) histogram(points, samples, queries int) error {
	start := time.Now()
	task, err := s.loadTask("histogram", points)
	if err != nil {
		return err
	}
	fmt.Printf("histogram task: %d points (%d series) loaded in %.1f s\n", points, s.series, time.Since(start).Seconds())
	if err := (&events.Roller{DB: s.f.a.DB}).Run(context.Background()); err != nil {
		return err
	}
	body := []byte(fmt.Sprintf(`{"task":%q,"samples":%d,"key":"iter"}`, task, samples))
	lat := timeCalls(queries, func() error {
		return doJSON(s.eb.post("events.scalar_metrics_iter_histogram", "application/json", body), &struct{}{})
	})
	if lat == nil {
		return fmt.Errorf("histogram calls failed")
	}
	fmt.Printf("scalar_metrics_iter_histogram of the %d-point task (samples %d), %d calls: %s\n", points, samples, queries, percentiles(lat))
	return nil
}

// taskList measures the experiments table of the web app: a page of
// tasks.get_all_ex with two metric columns, sorted by one of them.
func (s *scaleBench) taskList(queries int) error {
	m, v := events.Hash("metric0"), events.Hash("v0")
	m2, v2 := events.Hash("metric1"), events.Hash("v1")
	body := []byte(fmt.Sprintf(`{"only_fields":["id","name","status","started","last_iteration","last_metrics.%s.%s","last_metrics.%s.%s"],"order_by":["-last_metrics.%s.%s.value"],"page":0,"page_size":50,"type":["training"]}`,
		m, v, m2, v2, m, v))
	lat := timeCalls(queries, func() error {
		return doJSON(s.eb.post("tasks.get_all_ex", "application/json", body), &struct{}{})
	})
	if lat == nil {
		return fmt.Errorf("tasks.get_all_ex calls failed")
	}
	fmt.Printf("tasks.get_all_ex, 50 tasks with 2 metric columns sorted by one, %d calls: %s\n", queries, percentiles(lat))
	return nil
}

// deleteWhileIngesting loads a task of points points, then deletes it
// while workers keep reporting to the other tasks, and prints the
// latencies of the reports that overlapped the delete.
func (s *scaleBench) deleteWhileIngesting(ids []string, iters, points, workers, batch int) error {
	start := time.Now()
	big, err := s.loadTask("deleted", points)
	if err != nil {
		return err
	}
	fmt.Printf("deleted task: %d points loaded in %.1f s\n", points, time.Since(start).Seconds())
	per := batch / s.series
	ctx, stop := context.WithCancel(context.Background())
	type call struct {
		start, end time.Time
	}
	var mu sync.Mutex
	var calls []call
	var wg sync.WaitGroup
	var failed atomic.Int64
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			var buf []byte
			for k := 0; ctx.Err() == nil; k++ {
				task := ids[(w+k*workers)%len(ids)]
				from := iters + (k/len(ids)+w)*per*workers
				buf = s.lines(buf[:0], task, from, per)
				t0 := time.Now()
				if _, err := s.send(buf); err != nil {
					failed.Add(1)
					continue
				}
				mu.Lock()
				calls = append(calls, call{t0, time.Now()})
				mu.Unlock()
			}
		}(w)
	}
	time.Sleep(2 * time.Second)
	d0 := time.Now()
	err = doJSON(s.eb.post("tasks.delete", "application/json", []byte(fmt.Sprintf(`{"task":%q,"force":true}`, big))), &struct{}{})
	d1 := time.Now()
	time.Sleep(2 * time.Second)
	stop()
	wg.Wait()
	if err != nil {
		return err
	}
	var during, other []time.Duration
	for _, c := range calls {
		if c.end.After(d0) && c.start.Before(d1) {
			during = append(during, c.end.Sub(c.start))
		} else {
			other = append(other, c.end.Sub(c.start))
		}
	}
	fmt.Printf("tasks.delete of the %d-point task: %.2f s; add_batch (%d points) overlapping it: %s; before and after it: %s; failures %d\n",
		points, d1.Sub(d0).Seconds(), batch, percentiles(during), percentiles(other), failed.Load())
	return nil
}

// percentiles formats the count, p50, p99 and max of latencies.
func percentiles(lat []time.Duration) string {
	if len(lat) == 0 {
		return "no calls"
	}
	l := append([]time.Duration(nil), lat...)
	sort.Slice(l, func(i, j int) bool { return l[i] < l[j] })
	return fmt.Sprintf("%d calls, p50 %.1f ms, p99 %.1f ms, max %.1f ms", len(l), ms(l[len(l)/2]), ms(l[len(l)*99/100]), ms(l[len(l)-1]))
}

// printTableBytes prints the bytes per point of each event table and
// index (the points of the other tasks are not yet stored).
func printTableBytes(ctx context.Context, f *fleetServer, points int) error {
	sizes, err := tableBytes(ctx, f.a.DB)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(sizes))
	for n := range sizes {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Print("by table (bytes per point):")
	for _, n := range names {
		if sizes[n] > 0 {
			fmt.Printf(" %s %.2f;", n, float64(sizes[n])/float64(points))
		}
	}
	fmt.Println()
	return nil
}
