package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// twoHandles opens the database twice, as two Trove processes would; on
// SQLite, which one process owns, both handles are the same store.
func twoHandles(t *testing.T, backend string) (*store.DB, *store.DB) {
	t.Helper()
	dsn := filepath.Join(t.TempDir(), "trove.db")
	if backend == "postgres" {
		dsn = storetest.NewPostgresDB(t)
	}
	open := func() *store.DB {
		db, err := store.Open(context.Background(), dsn, "")
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	a := open()
	if backend != "postgres" {
		return a, a
	}
	return a, open()
}

// TestExclusiveKeepsOneHolder: while A runs under a lock, B's try on the
// same name does not run and another name does; B's waiting call runs as
// soon as A is done.
func TestExclusiveKeepsOneHolder(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			a, b := twoHandles(t, backend)
			ctx := context.Background()
			inside, release := make(chan struct{}), make(chan struct{})
			done := make(chan error, 1)
			go func() {
				_, err := a.Exclusive(ctx, "job:x", false, func(context.Context) error {
					close(inside)
					<-release
					return nil
				})
				done <- err
			}()
			<-inside
			ran, err := b.Exclusive(ctx, "job:x", false, func(context.Context) error { return nil })
			if err != nil || ran {
				t.Fatalf("second holder of job:x: ran %v, err %v", ran, err)
			}
			ran, err = b.Exclusive(ctx, "job:y", false, func(context.Context) error { return nil })
			if err != nil || !ran {
				t.Fatalf("another lock: ran %v, err %v", ran, err)
			}
			waited, waitDone := make(chan time.Time, 1), make(chan error, 1)
			go func() {
				_, err := b.Exclusive(ctx, "job:x", true, func(context.Context) error {
					waited <- time.Now()
					return nil
				})
				waitDone <- err
			}()
			select {
			case <-waited:
				t.Fatal("a waiting call ran while the lock was held")
			case <-time.After(100 * time.Millisecond):
			}
			released := time.Now()
			close(release)
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if at := <-waited; at.Before(released) {
				t.Fatal("the waiting call ran before the release")
			}
			if err := <-waitDone; err != nil {
				t.Fatal(err)
			}
			// fn's error comes back; the lock is free afterwards (both
			// holders are done)
			boom := errors.New("boom")
			if _, err := a.Exclusive(ctx, "job:x", false, func(context.Context) error { return boom }); !errors.Is(err, boom) {
				t.Fatalf("error of fn: %v", err)
			}
			if ran, err := b.Exclusive(ctx, "job:x", false, func(context.Context) error { return nil }); !ran || err != nil {
				t.Fatalf("after a failed run: ran %v, err %v", ran, err)
			}
		})
	}
}

// TestRevocationsAreHeard: a session revoked through one handle is heard
// by a watcher on the other (PostgreSQL); on SQLite the watcher is ready
// and ends with its context.
func TestRevocationsAreHeard(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			a, b := twoHandles(t, backend)
			ctx, cancel := context.WithCancel(context.Background())
			ready, heard, ended := make(chan struct{}, 1), make(chan string, 4), make(chan error, 1)
			go func() {
				ended <- b.WatchRevocations(ctx, func() { ready <- struct{}{} }, func(s string) { heard <- s })
			}()
			select {
			case <-ready:
			case <-time.After(5 * time.Second):
				t.Fatal("watcher never ready")
			}
			if err := a.RevokeSession(context.Background(), "session-1", time.Now().Add(time.Hour).UnixMilli()); err != nil {
				t.Fatal(err)
			}
			if backend == "postgres" {
				select {
				case s := <-heard:
					if s != "session-1" {
						t.Fatalf("heard %q", s)
					}
				case <-time.After(time.Second):
					t.Fatal("revocation not heard within 1 s")
				}
			}
			cancel()
			if err := <-ended; err != nil {
				t.Fatalf("watcher ended with %v", err)
			}
		})
	}
}
