package events

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// The test binary doubles as the writer process that TestAckedBatchesSurviveKill kills.
func TestMain(m *testing.M) {
	if dsn := os.Getenv("TROVE_KILL_CHILD_DSN"); dsn != "" {
		runKillChild(dsn, strings.Split(os.Getenv("TROVE_KILL_CHILD_TASKS"), ","))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

const (
	killCompany        = "kill-test-company"
	killScalarsPerIter = 10
)

// runKillChild reports to each task from its own goroutine, batch after
// batch, and prints "ack <task> <iter>" once Ingest has acknowledged a
// batch, until it is killed.
func runKillChild(dsn string, tasks []string) {
	db, err := store.Open(context.Background(), dsn, "")
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		os.Exit(1)
	}
	in := &Ingester{DB: db, Now: time.Now}
	var out sync.Mutex
	var wg sync.WaitGroup
	for _, task := range tasks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for iter := 0; ; iter++ {
				res, err := in.Ingest(context.Background(), Batch{Company: killCompany, User: "u", Lines: killLines(task, iter)})
				if err != nil || res.Added != killScalarsPerIter+1 {
					fmt.Fprintln(os.Stderr, "ingest:", err, res)
					os.Exit(1)
				}
				out.Lock()
				fmt.Fprintf(os.Stdout, "ack %s %d\n", task, iter)
				out.Unlock()
			}
		}()
	}
	wg.Wait()
}

// killLines is one batch: killScalarsPerIter scalars of iteration iter
// and a log line.
func killLines(task string, iter int) [][]byte {
	var lines [][]byte
	for v := 0; v < killScalarsPerIter; v++ {
		lines = append(lines, []byte(fmt.Sprintf(`{"type":"training_stats_scalar","task":%q,"iter":%d,"metric":"m","variant":"v%d","value":%d}`, task, iter, v, iter)))
	}
	return append(lines, []byte(fmt.Sprintf(`{"type":"log","task":%q,"msg":"line %d"}`, task, iter)))
}

// TestAckedBatchesSurviveKill kills (SIGKILL) a process while it ingests
// from several writers at once, and checks that every batch it had
// acknowledged is stored whole: its points, its log line and its task's
// summary.
func TestAckedBatchesSurviveKill(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			dsn := filepath.Join(t.TempDir(), "trove.db")
			if backend == "postgres" {
				dsn = storetest.NewPostgresDB(t)
			}
			db, err := store.Open(context.Background(), dsn, "")
			if err != nil {
				t.Fatal(err)
			}
			var tasks []string
			for i := 0; i < 8; i++ {
				tasks = append(tasks, newStoredTask(t, db, killCompany, fmt.Sprintf("kill %d", i)))
			}
			db.Close()

			acked := killAfterAcks(t, dsn, tasks, 400)

			db, err = store.Open(context.Background(), dsn, "")
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			checkAcked(t, db, acked)
		})
	}
}

// killAfterAcks runs the child until it has acknowledged n batches, kills
// it and returns the highest acknowledged iteration per task (a task's
// batches are acknowledged in order).
func killAfterAcks(t *testing.T, dsn string, tasks []string, n int) map[string]int {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "TROVE_KILL_CHILD_DSN="+dsn, "TROVE_KILL_CHILD_TASKS="+strings.Join(tasks, ","))
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	acked := map[string]int{}
	count := 0
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 3 || f[0] != "ack" {
			continue
		}
		it, _ := strconv.Atoi(f[2])
		acked[f[1]] = max(acked[f[1]], it)
		if count++; count == n {
			// acks printed before the kill are still read below
			if err := cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
		}
	}
	_ = cmd.Wait()
	if count < n {
		t.Fatalf("the writer ended by itself after %d acknowledged batches", count)
	}
	return acked
}

func checkAcked(t *testing.T, db *store.DB, acked map[string]int) {
	ctx := context.Background()
	es := eventstore.Of(db)
	for task, last := range acked {
		series, err := es.TaskSeries(ctx, db.Read(), task)
		if err != nil {
			t.Fatal(err)
		}
		if len(series) != killScalarsPerIter {
			t.Fatalf("task %s: %d series stored, want %d", task, len(series), killScalarsPerIter)
		}
		for _, s := range series {
			its, _, err := es.IterValues(ctx, db.Read(), s.ID, -1, 1<<30)
			if err != nil {
				t.Fatal(err)
			}
			if len(its) < last+1 || its[last] != int64(last) {
				t.Fatalf("task %s series %s/%s: %d points stored, batches up to iteration %d were acknowledged", task, s.Metric, s.Variant, len(its), last)
			}
		}
		rec, err := db.Tasks().Get(ctx, db.Read(), task)
		if err != nil {
			t.Fatal(err)
		}
		if rec.LastIteration < int64(last) {
			t.Fatalf("task %s: last_iteration %d, batches up to iteration %d were acknowledged", task, rec.LastIteration, last)
		}
	}
}
