package app

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/store"
)

// A start waits for a database it cannot reach (PostgreSQL starting after
// Trove, or briefly away) instead of exiting at once: it retries with
// backoff for up to --db-wait, logging each try, and meanwhile the bound
// ports answer /healthz 200, /readyz 503 and every call 503 with
// Retry-After (ServeStarting). Past the bound it fails with the last
// error.

// dbRetryFirst and dbRetryMax are the backoff's first and longest pause.
var (
	dbRetryFirst = time.Second
	dbRetryMax   = 15 * time.Second
)

// openStore opens the store, retrying store faults for up to cfg.DBWait.
func openStore(ctx context.Context, cfg config.Config, log *slog.Logger) (*store.DB, error) {
	start := time.Now()
	pause := dbRetryFirst
	for try := 1; ; try++ {
		opts := cfg.Startup.StoreOptions()
		opts.Log = log
		db, err := store.OpenWith(ctx, cfg.DB, cfg.DataDir, opts)
		if err == nil {
			if try > 1 {
				log.Info("database reached", "tries", try, "waited", time.Since(start).Round(time.Millisecond).String())
			}
			return db, nil
		}
		f := store.FaultOf(err)
		if f == "" || cfg.DBWait <= 0 {
			return nil, err
		}
		waited := time.Since(start)
		if waited+pause > time.Duration(cfg.DBWait) {
			return nil, fmt.Errorf("%s: gave up after %d tries in %s (--db-wait %s): %w", f, try, waited.Round(time.Second), cfg.DBWait, err)
		}
		log.Warn("database not reachable, retrying", "try", try, "retry_in", pause.String(),
			"waited", waited.Round(time.Millisecond).String(), "db_wait", cfg.DBWait.String(), "error", err.Error())
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("stopped while waiting for the database: %w", err)
		case <-time.After(pause):
		}
		pause = min(2*pause, dbRetryMax)
	}
}

// ServeStarting answers on the bound ports until stop is called, while
// the store is being opened: /healthz 200, /readyz 503 and everything
// else 503 with Retry-After (the SDK waits on a 503). stop hands the
// listeners over to Run unclosed.
func ServeStarting(ls *Listeners, log *slog.Logger) (stop func()) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/healthz":
			writeText(w, http.StatusOK, "ok\n")
		case "/readyz":
			writeText(w, http.StatusServiceUnavailable, "not ready: starting: opening the database\n")
		default:
			w.Header().Set("Retry-After", "2")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"meta":{"id":"","trx":"","endpoint":{"name":"","requested_version":"","actual_version":""},` +
				`"result_code":503,"result_subcode":0,"result_msg":"Service temporarily unavailable (the server is starting: opening the database); retry shortly",` +
				`"error_stack":"","error_data":{}},"data":{}}`))
		}
	})
	type served struct {
		srv *http.Server
		ln  deadliner
	}
	var all []served
	var wg sync.WaitGroup
	for _, ln := range []net.Listener{ls.API, ls.Files, ls.Web} {
		d, ok := ln.(deadliner)
		if ln == nil || !ok {
			continue
		}
		srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
		all = append(all, served{srv, d})
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = srv.Serve(handoffListener{ln, d})
		}()
	}
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		for _, s := range all {
			if err := s.srv.Shutdown(ctx); err != nil {
				log.Warn("start-up responder shutdown", "error", err.Error())
			}
		}
		wg.Wait()
		for _, s := range all {
			_ = s.ln.SetDeadline(time.Time{})
		}
	}
}

// deadliner is a listener whose Accept can be ended without closing it.
type deadliner interface {
	net.Listener
	SetDeadline(time.Time) error
}

// handoffListener is a listener that http.Server closes by ending its
// Accept (a deadline in the past) and leaves open for the next server.
type handoffListener struct {
	net.Listener
	d deadliner
}

func (l handoffListener) Close() error { return l.d.SetDeadline(time.Unix(1, 0)) }
