package transfer_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
	"github.com/trove-ml/trove/internal/transfer"
)

// eventTables are the tables whose rows are reported events.
var eventTables = map[string]bool{"event_scalars": true, "event_logs": true, "event_docs": true}

// BenchmarkCopy loads a SQLite store through events.add_batch (four
// scalar series and a log line per iteration, over several tasks; total
// events from TROVE_BENCH_COPY_EVENTS, default 1,000,000), then copies it
// into each backend and reports events/s of the copy alone (with its
// check).
func BenchmarkCopy(b *testing.B) {
	total := 1_000_000
	if v, err := strconv.Atoi(os.Getenv("TROVE_BENCH_COPY_EVENTS")); err == nil && v > 0 {
		total = v
	}
	src := testenv.New(b, "sqlite")
	loadEvents(b, src, total)
	for _, backend := range testenv.Backends() {
		b.Run("to_"+backend, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				dsn := filepath.Join(b.TempDir(), "trove.db")
				if backend == "postgres" {
					dsn = testenv.NewPostgresDB(b)
				}
				dst, err := store.Open(context.Background(), dsn, "")
				if err != nil {
					b.Fatal(err)
				}
				start, cpu0 := time.Now(), cpuTime()
				res, err := transfer.Copy(context.Background(), src.App.DB, dst, io.Discard)
				if err != nil {
					b.Fatal(err)
				}
				copyOnly := res.Elapsed
				all, cpu := time.Since(start), cpuTime()-cpu0
				dst.Close()
				var events int64
				for _, c := range res.Check.Counts {
					if eventTables[c.Table] {
						events += c.Target
					}
				}
				b.ReportMetric(float64(events)/copyOnly.Seconds(), "events/s")
				b.ReportMetric(float64(events)/all.Seconds(), "events/s_with_check")
				b.ReportMetric(float64(events)/cpu.Seconds(), "events/cpu_s_with_check")
				b.ReportMetric(float64(res.Rows), "rows")
			}
		})
	}
}

// loadEvents sends total events through the API in batches of 5,000.
func loadEvents(b *testing.B, e *testenv.Env, total int) {
	const perIter, batchIters = 5, 1000
	var tasks []string
	for i := 0; i < 10; i++ {
		tasks = append(tasks, e.Call(b, "tasks.create", obj{"name": fmt.Sprintf("bench-%d", i), "type": "training"}).OK(b).Str("id"))
	}
	iters := total / perIter
	lines := make([]string, 0, batchIters*perIter)
	for it := 0; it < iters; it++ {
		task := tasks[(it/batchIters)%len(tasks)]
		for _, m := range []string{"loss", "acc", "lr", "grad"} {
			lines = append(lines, fmt.Sprintf(`{"type":"training_stats_scalar","task":%q,"metric":%q,"variant":"v","iter":%d,"value":%g,"timestamp":%d}`,
				task, m, it, 1/float64(it+1), 1700000000000+int64(it)))
		}
		lines = append(lines, fmt.Sprintf(`{"type":"log","task":%q,"msg":"step %d done","level":"info","iter":%d,"timestamp":%d}`, task, it, it, 1700000000000+int64(it)))
		if len(lines) == cap(lines) || it == iters-1 {
			sendBatch(b, e, lines)
			lines = lines[:0]
		}
	}
	b.Logf("loaded %d events (%s)", iters*perIter, strings.Join(tasks[:1], ""))
}

// cpuTime is the CPU time (user and system) this process has used: on a
// shared machine it shows the copy's own cost, which wall time does not.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
