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

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

// TestSigtermDuringSlowQuery: SIGTERM while a slow list query runs ends
// the server within 10 s (main's signal context, then serve's shutdown),
// and the query's call is answered with a 503.
func TestSigtermDuringSlowQuery(t *testing.T) {
	for _, backend := range testenv.Backends() {
		t.Run(backend, func(t *testing.T) {
			in := newInstance(t, backend)
			ctx := context.Background()
			db, err := store.Open(ctx, in.db, in.dir)
			if err != nil {
				t.Fatal(err)
			}
			g, err := auth.Bootstrap(ctx, &domain.Env{DB: db, Now: time.Now}, "", "", nil)
			if err != nil || g == nil {
				db.Close()
				t.Fatalf("bootstrap: %v %v", g, err)
			}
			testenv.SeedSlowTasks(t, db, auth.DefaultCompanyID)
			db.Close()

			// As main: the server's context ends on SIGTERM.
			sigCtx, stopSignals := signal.NotifyContext(ctx, syscall.SIGTERM)
			defer stopSignals()
			var stdout, stderr syncBuffer
			done := make(chan error, 1)
			free := "127.0.0.1:0"
			go func() { done <- serve(sigCtx, in.args(free, free, free), noEnv, &stdout, &stderr) }()
			api := "http://" + waitStarted(t, &stderr, done)
			token := loginToken(t, api, g.AccessKey, g.SecretKey)

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
			time.Sleep(time.Second)
			select {
			case status := <-answered:
				t.Fatalf("the slow request ended within a second (%d): nothing to interrupt", status)
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

// waitStarted waits for serve's start-up line and returns the API address.
func waitStarted(t *testing.T, stderr *syncBuffer, done <-chan error) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !bytes.Contains([]byte(stderr.String()), []byte("trove started")) {
		select {
		case err := <-done:
			t.Fatalf("serve ended at start: %v\n%s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not start:\n%s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return apiAddr(t, stderr.String())
}

// loginToken logs in with a key pair and returns the token.
func loginToken(t *testing.T, api, key, secret string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, api+"/auth.login", nil)
	req.SetBasicAuth(key, secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var env struct {
		Data struct {
			Token string `json:"token"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil || env.Data.Token == "" {
		t.Fatalf("login: %s %v", resp.Status, err)
	}
	return env.Data.Token
}
