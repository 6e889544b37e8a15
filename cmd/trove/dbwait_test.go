package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/testenv"
)

// freePort is a loopback address with a port nothing listens on now.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// waitLog polls stderr for text for at most 30 s.
func waitLog(t *testing.T, stderr *syncBuffer, done <-chan error, text string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(stderr.String(), text) {
		select {
		case err := <-done:
			t.Fatalf("serve ended before logging %q: %v\n%s", text, err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %q logged in 30 s:\n%s", text, stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func httpGet(t *testing.T, method, url string) (int, string, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(method, url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

// cutInstance is a PostgreSQL instance reached through a proxy that is
// cut: the database is unreachable until p.Restore().
func cutInstance(t *testing.T) (*testenv.Proxy, instance) {
	t.Helper()
	p := testenv.NewProxy(t)
	in := newInstance(t, "postgres")
	via, err := p.Via(in.db)
	if err != nil {
		t.Fatal(err)
	}
	in.db = via
	p.Cut()
	return p, in
}

// TestStartWaitsForDatabase: a start against an unreachable PostgreSQL
// (a cut proxy) retries with backoff, logging each try, while its ports
// answer /healthz 200, /readyz 503 and calls 503 with Retry-After; once
// the database is back it starts and is ready. With the database away
// past --db-wait it exits with an error naming the bound.
func TestStartWaitsForDatabase(t *testing.T) {
	if !slices.Contains(testenv.Backends(), "postgres") {
		t.Skip("PostgreSQL not configured (TROVE_TEST_POSTGRES): the wait is for a database server")
	}
	t.Run("database back within the bound", func(t *testing.T) {
		p, in := cutInstance(t)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var stdout, stderr syncBuffer
		done := make(chan error, 1)
		api := freePort(t)
		go func() {
			done <- serve(ctx, append(in.args(api, "127.0.0.1:0", "127.0.0.1:0"), "--db-wait", "2m"), noEnv, &stdout, &stderr)
		}()
		waitLog(t, &stderr, done, "database not reachable, retrying")
		base := "http://" + api
		if code, _, _ := httpGet(t, http.MethodGet, base+"/healthz"); code != 200 {
			t.Fatalf("/healthz while waiting: %d", code)
		}
		if code, body, _ := httpGet(t, http.MethodGet, base+"/readyz"); code != 503 || !strings.Contains(body, "starting") {
			t.Fatalf("/readyz while waiting: %d %q", code, body)
		}
		if code, body, h := httpGet(t, http.MethodPost, base+"/tasks.get_all"); code != 503 || h.Get("Retry-After") != "2" || !strings.Contains(body, `"result_code":503`) {
			t.Fatalf("a call while waiting: %d %q Retry-After %q", code, body, h.Get("Retry-After"))
		}
		waitLog(t, &stderr, done, "try=2")
		p.Restore()
		waitStarted(t, &stderr, done)
		if !strings.Contains(stderr.String(), "database reached") {
			t.Fatalf("no 'database reached' line:\n%s", stderr.String())
		}
		if code, body, _ := httpGet(t, http.MethodGet, base+"/readyz"); code != 200 {
			t.Fatalf("/readyz once started: %d %q", code, body)
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("serve: %v", err)
		}
	})
	t.Run("database away past the bound", func(t *testing.T) {
		_, in := cutInstance(t)
		var stdout, stderr syncBuffer
		free := "127.0.0.1:0"
		err := serve(context.Background(), append(in.args(free, free, free), "--db-wait", "2s"), noEnv, &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), "the database is unreachable: gave up after ") || !strings.Contains(err.Error(), "--db-wait 2s") {
			t.Fatalf("serve with the database away: %v\n%s", err, stderr.String())
		}
	})
}
