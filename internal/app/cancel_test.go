package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

// slowRequest is the slow call of e's backend.
func slowRequest(ctx context.Context, t *testing.T, e *testenv.Env) *http.Request {
	t.Helper()
	body, _ := json.Marshal(testenv.SlowListBody(e.Backend))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.URL+"/tasks.get_all", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+e.Token)
	return req
}

// cpuTime is the CPU time (user and system) this process has used.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// callFor sends the slow request and gives up after d; it fails the test
// if the request finished by then (it was meant to be slow).
func callFor(t *testing.T, e *testenv.Env, d time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	resp, err := http.DefaultClient.Do(slowRequest(ctx, t, e))
	if err == nil {
		resp.Body.Close()
		t.Fatalf("the slow request finished within %s (HTTP %d): it is not slow enough to test with", d, resp.StatusCode)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("slow request: %v", err)
	}
}

// activeStatements counts the statements PostgreSQL is running for the
// store's database other than the one asking.
func activeStatements(t *testing.T, db store.Querier) int {
	t.Helper()
	var n int
	err := db.QueryRowContext(context.Background(), `SELECT count(*) FROM pg_stat_activity
		WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`).Scan(&n)
	if err != nil {
		t.Fatalf("pg_stat_activity: %v", err)
	}
	return n
}

// TestAbandonedRequestStopsWorking: a client that leaves a slow request
// after 200 ms leaves no work behind: its statement stops (waited for,
// bounded), and then the server (and PostgreSQL) spend no CPU on it.
func TestAbandonedRequestStopsWorking(t *testing.T) {
	// serial: the stall is process-wide and the CPU measured is the process's
	testenv.EachSerial(t, func(t *testing.T, e *testenv.Env) {
		testenv.StallTaskLists(t, e.Backend, e.DBURL())
		// The request blocks: it does not finish in 3 s.
		callFor(t, e, 3*time.Second)
		testenv.WaitStalled(t, e.Backend, e.DBURL(), 0, 10*time.Second)

		start := time.Now()
		callFor(t, e, 200*time.Millisecond)
		// the abandoned statement stops (bounded wait), then nothing runs on
		testenv.WaitStalled(t, e.Backend, e.DBURL(), 0, 10*time.Second)
		t.Logf("%s: the statement stopped %s after the client left", e.Backend, time.Since(start))
		before := cpuTime(t)
		time.Sleep(2 * time.Second)
		spent := cpuTime(t) - before
		// A request still running would use about a core over those 2 s.
		if spent > 500*time.Millisecond {
			t.Fatalf("the server used %s of CPU in the 2 s after the statement stopped", spent)
		}
		if e.Backend == "postgres" {
			if n := activeStatements(t, e.App.DB.Read()); n > 0 {
				t.Fatalf("PostgreSQL still runs %d statements %s after the client left", n, time.Since(start))
			}
		}
		t.Logf("%s: CPU in the 2 s after the statement stopped: %s", e.Backend, spent)
	})
}
