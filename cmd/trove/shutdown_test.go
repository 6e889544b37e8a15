package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/testenv"
)

// TestSigtermDuringSlowQuery: SIGTERM while a list query runs ends the
// server within 10 s (main's signal context, then serve's shutdown), and
// the query's call is answered with a 503. The query blocks until it is
// cancelled (testenv.StallTaskLists), so it always outlasts the grace.
func TestSigtermDuringSlowQuery(t *testing.T) {
	for _, backend := range testenv.Backends() {
		t.Run(backend, func(t *testing.T) {
			in := newInstance(t, backend)
			db, g := bootstrapped(t, in)
			db.Close()

			// As main: the server's context ends on SIGTERM.
			sigCtx, stopSignals := signal.NotifyContext(context.Background(), syscall.SIGTERM)
			defer stopSignals()
			var stdout, stderr syncBuffer
			done := make(chan error, 1)
			free := "127.0.0.1:0"
			go func() { done <- serve(sigCtx, in.args(free, free, free), noEnv, &stdout, &stderr) }()
			api := "http://" + waitStarted(t, &stderr, done)
			token := login(t, api, g.AccessKey, g.SecretKey)
			testenv.StallTaskLists(t, backend, in.db)

			body, _ := json.Marshal(testenv.SlowListBody(backend))
			req, _ := http.NewRequest(http.MethodPost, api+"/tasks.get_all", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+token)
			answered := make(chan int, 1)
			go func() {
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					answered <- 0
					return
				}
				resp.Body.Close()
				answered <- resp.StatusCode
			}()
			// the request is held in the store (bounded wait), not just sent
			testenv.WaitStalled(t, backend, in.db, 1, 30*time.Second)
			select {
			case status := <-answered:
				t.Fatalf("the slow request ended while held (%d): nothing to interrupt", status)
			default:
			}

			sent := time.Now()
			if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("serve after SIGTERM: %v", err)
				}
				t.Logf("%s: stopped %s after SIGTERM", backend, time.Since(sent).Round(time.Millisecond))
				// The interrupted call is answered, as a shutdown.
				if status := <-answered; status != http.StatusServiceUnavailable {
					t.Fatalf("the call interrupted by the shutdown got %d, want 503", status)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("the server still runs 10 s after SIGTERM:\n%s", stderr.String())
			}
		})
	}
}
