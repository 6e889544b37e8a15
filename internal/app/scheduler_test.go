package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/domain"
)

// wait bounds every wait of these tests; nothing depends on it being short.
const wait = 30 * time.Second

// recorded collects what the scheduler logs and which locks it took.
type recorded struct {
	mu    sync.Mutex
	lines []string
	locks []string
}

func (r *recorded) add(to *[]string, s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	*to = append(*to, s)
}

func (r *recorded) get(from *[]string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), *from...)
}

func (r *recorded) Enabled(context.Context, slog.Level) bool { return true }
func (r *recorded) WithAttrs([]slog.Attr) slog.Handler       { return r }
func (r *recorded) WithGroup(string) slog.Handler            { return r }
func (r *recorded) Handle(_ context.Context, rec slog.Record) error {
	line := rec.Level.String() + " " + rec.Message
	rec.Attrs(func(a slog.Attr) bool {
		if a.Key != "stack" {
			line += " " + a.Key + "=" + a.Value.String()
		}
		return true
	})
	r.add(&r.lines, line)
	return nil
}

// newTestScheduler runs jobs with locks that record their use.
func newTestScheduler(jobs []domain.Job) (*scheduler, *recorded) {
	r := &recorded{}
	s := &scheduler{jobs: jobs, log: slog.New(r),
		exclusive: func(ctx context.Context, name string, fn func(context.Context) error) error {
			r.add(&r.locks, "job:"+name)
			return fn(ctx)
		},
		inTurn: func(ctx context.Context, fn func(context.Context) error) error {
			r.add(&r.locks, "startup")
			return fn(ctx)
		},
	}
	return s, r
}

// TestSchedulerStartup: the start-up steps run in list order before any
// periodic job, the exclusive ones under the start-up lock, and the first
// failure stops the start naming its step.
func TestSchedulerStartup(t *testing.T) {
	boom := errors.New("boom")
	for _, c := range []struct {
		name      string
		fail      string // the step that fails
		wantRan   []string
		wantLocks []string
		wantErr   string
	}{
		{name: "all run in order", wantRan: []string{"a", "b", "c"}, wantLocks: []string{"startup", "startup"}},
		{name: "failure stops the start", fail: "b", wantRan: []string{"a", "b"}, wantLocks: []string{"startup", "startup"},
			wantErr: "start b: boom"},
		{name: "first step fails", fail: "a", wantRan: []string{"a"}, wantLocks: []string{"startup"}, wantErr: "start a: boom"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var ran []string
			step := func(name string, exclusive bool) domain.Job {
				return domain.Job{Name: name, Exclusive: exclusive, Run: func(context.Context, *slog.Logger) error {
					ran = append(ran, name)
					if name == c.fail {
						return boom
					}
					return nil
				}}
			}
			periodic := domain.Job{Name: "p", Every: time.Second, Run: func(context.Context, *slog.Logger) error {
				ran = append(ran, "p")
				return nil
			}}
			s, r := newTestScheduler([]domain.Job{step("a", true), periodic, step("b", true), step("c", false)})
			err := s.runStartup(context.Background())
			if c.wantErr == "" && err != nil || c.wantErr != "" && (err == nil || err.Error() != c.wantErr || !errors.Is(err, boom)) {
				t.Fatalf("error %v, want %q", err, c.wantErr)
			}
			if got := strings.Join(ran, ","); got != strings.Join(c.wantRan, ",") {
				t.Errorf("ran %s, want %s", got, strings.Join(c.wantRan, ","))
			}
			if got := strings.Join(r.get(&r.locks), ","); got != strings.Join(c.wantLocks, ",") {
				t.Errorf("locks %s, want %s", got, strings.Join(c.wantLocks, ","))
			}
		})
	}
}

// handTicker hands out one tick channel per job, in list order, that the
// test ticks; a send returns once the job's goroutine took the tick, that
// is once its previous run (and its logging) is over.
type handTicker struct {
	mu      sync.Mutex
	periods []time.Duration
	chans   []chan time.Time
	stopped int
}

func (h *handTicker) ticker(period time.Duration) (<-chan time.Time, func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	c := make(chan time.Time)
	h.periods = append(h.periods, period)
	h.chans = append(h.chans, c)
	return c, func() { h.mu.Lock(); h.stopped++; h.mu.Unlock() }
}

func (h *handTicker) tick(t *testing.T, i int) {
	t.Helper()
	select {
	case h.chans[i] <- time.Now():
	case <-time.After(wait):
		t.Fatalf("job %d took no tick within %s", i, wait)
	}
}

// TestSchedulerPeriodic: each periodic job gets a ticker of its period;
// a run happens on each tick, under the cluster lock when the job asks
// for it; a failing or panicking run is logged with the job's name and
// the job goes on; cancelling stops every job and its ticker.
func TestSchedulerPeriodic(t *testing.T) {
	runs := make(chan string, 16)
	var mu sync.Mutex
	count := map[string]int{}
	job := func(name string, every time.Duration, exclusive bool, run func(n int) error) domain.Job {
		return domain.Job{Name: name, Every: every, Exclusive: exclusive, Run: func(context.Context, *slog.Logger) error {
			mu.Lock()
			count[name]++
			n := count[name]
			mu.Unlock()
			runs <- name
			return run(n)
		}}
	}
	jobs := []domain.Job{
		{Name: "start step", Run: func(context.Context, *slog.Logger) error { t.Error("a start-up step ran while serving"); return nil }},
		job("ok", 2*time.Second, true, func(int) error { return nil }),
		job("fails", time.Minute, false, func(n int) error {
			if n <= 2 {
				return fmt.Errorf("failure %d", n)
			}
			return nil
		}),
		job("panics", time.Hour, true, func(n int) error {
			if n == 1 {
				panic("bad state")
			}
			return nil
		}),
	}
	s, r := newTestScheduler(jobs)
	h := &handTicker{}
	s.ticker = h.ticker
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	s.start(ctx, &wg)
	if got := fmt.Sprint(h.periods); got != "[2s 1m0s 1h0m0s]" {
		t.Fatalf("periods %s, want one ticker per periodic job", got)
	}
	expect := func(name string) {
		t.Helper()
		select {
		case got := <-runs:
			if got != name {
				t.Fatalf("%s ran, want %s", got, name)
			}
		case <-time.After(wait):
			t.Fatalf("%s did not run within %s", name, wait)
		}
	}
	for _, step := range []struct {
		job  int
		name string
	}{{0, "ok"}, {1, "fails"}, {2, "panics"}, {0, "ok"}, {1, "fails"}, {2, "panics"}} {
		h.tick(t, step.job)
		expect(step.name)
	}
	// a third tick to each job is taken only once its second run has
	// been logged (third runs succeed: nothing more is logged)
	for i := range 3 {
		h.tick(t, i)
	}
	for range 3 {
		<-runs
	}
	cancel()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(wait):
		t.Fatalf("jobs did not stop within %s of the cancel", wait)
	}
	if h.stopped != 3 {
		t.Errorf("%d tickers stopped, want 3", h.stopped)
	}
	// each job's lines come in its order; jobs log concurrently
	wantLines := []string{
		"ERROR job failed job=fails error=failure 1",
		"ERROR job failed job=fails error=failure 2",
		"ERROR job panic job=panics panic=bad state",
	}
	lines := r.get(&r.lines)
	slices.Sort(lines)
	if got := strings.Join(lines, "\n"); got != strings.Join(wantLines, "\n") {
		t.Errorf("logged\n%s\nwant\n%s", got, strings.Join(wantLines, "\n"))
	}
	// exclusive jobs took their lock on each run; "fails" never did
	locks := map[string]int{}
	for _, l := range r.get(&r.locks) {
		locks[l]++
	}
	if want := map[string]int{"job:ok": 3, "job:panics": 3}; fmt.Sprint(locks) != fmt.Sprint(want) {
		t.Errorf("locks %v, want %v", locks, want)
	}
}

// TestSchedulerRunAllOnce: every periodic job runs once in list order,
// start-up steps not, under the same locks; the first failure is
// returned naming its job and the later jobs do not run.
func TestSchedulerRunAllOnce(t *testing.T) {
	boom := errors.New("boom")
	for _, c := range []struct {
		name    string
		fail    string
		wantRan string
		wantErr string
	}{
		{name: "all", wantRan: "p1,p2,p3"},
		{name: "stops at a failure", fail: "p2", wantRan: "p1,p2", wantErr: "job p2: boom"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var ran []string
			job := func(name string, every time.Duration) domain.Job {
				return domain.Job{Name: name, Every: every, Exclusive: name != "p3", Run: func(context.Context, *slog.Logger) error {
					ran = append(ran, name)
					if name == c.fail {
						return boom
					}
					return nil
				}}
			}
			s, r := newTestScheduler([]domain.Job{job("p1", time.Second), job("start", 0), job("p2", time.Hour), job("p3", time.Minute)})
			err := s.runAllOnce(context.Background())
			if c.wantErr == "" && err != nil || c.wantErr != "" && (err == nil || err.Error() != c.wantErr || !errors.Is(err, boom)) {
				t.Fatalf("error %v, want %q", err, c.wantErr)
			}
			if got := strings.Join(ran, ","); got != c.wantRan {
				t.Errorf("ran %s, want %s", got, c.wantRan)
			}
			wantLocks := "job:p1,job:p2"
			if got := strings.Join(r.get(&r.locks), ","); got != wantLocks {
				t.Errorf("locks %s, want %s", got, wantLocks)
			}
		})
	}
}
