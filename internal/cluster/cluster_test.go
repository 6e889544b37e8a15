package cluster

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

type countingSessions struct {
	forgets atomic.Int32
	marked  chan string
}

func (c *countingSessions) MarkRevoked(s string)    { c.marked <- s }
func (c *countingSessions) ForgetRevocationChecks() { c.forgets.Add(1) }

// TestForgetForKeepsForgetting: while logouts cannot be heard, cached
// answers are dropped every forgetEvery, and the wait ends with ctx.
func TestForgetForKeepsForgetting(t *testing.T) {
	s := &countingSessions{}
	if !forgetFor(context.Background(), 3*forgetEvery+forgetEvery/2, s) {
		t.Fatal("forgetFor ended early")
	}
	if n := s.forgets.Load(); n < 4 {
		t.Fatalf("forgot %d times in 3.5 periods, want 4 (at once, then every period)", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if forgetFor(ctx, time.Hour, s) {
		t.Fatal("forgetFor went on after its context ended")
	}
}

// TestNodeRunsJobsOnceAtATime: a run of a job that is still running is
// skipped; other jobs and start-up steps go on.
func TestNodeRunsJobsOnceAtATime(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		n := &Node{DB: db, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
		ctx := context.Background()
		inside, release := make(chan struct{}), make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = n.RunJob(ctx, "sweep", func(context.Context) error {
				close(inside)
				<-release
				return nil
			})
		}()
		<-inside
		ran := false
		if err := n.RunJob(ctx, "sweep", func(context.Context) error { ran = true; return nil }); err != nil || ran {
			t.Fatalf("second run of a running job: ran %v, err %v", ran, err)
		}
		if err := n.RunJob(ctx, "rollups", func(context.Context) error { ran = true; return nil }); err != nil || !ran {
			t.Fatalf("another job: ran %v, err %v", ran, err)
		}
		close(release)
		wg.Wait()
		ran = false
		if err := n.Startup(ctx, func(context.Context) error { ran = true; return nil }); err != nil || !ran {
			t.Fatalf("start-up step: ran %v, err %v", ran, err)
		}
	})
}

// recordingSessions records what the watcher hands over.
type recordingSessions struct {
	countingSessions
	marked chan string
}

// MarkRevoked never blocks the watcher (the test reads only the first).
func (r *recordingSessions) MarkRevoked(s string) {
	select {
	case r.marked <- s:
	default:
	}
}

// TestWatchLogoutsComesBack: on PostgreSQL, when the listening connection
// is cut, the watcher forgets cached answers, listens again and hears the
// next logout; on SQLite it is ready at once and ends with its context.
func TestWatchLogoutsComesBack(t *testing.T) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			dsn := filepath.Join(t.TempDir(), "trove.db")
			if backend == "postgres" {
				dsn = storetest.NewPostgresDB(t)
			}
			b, err := store.Open(context.Background(), dsn, "")
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			s := &recordingSessions{marked: make(chan string, 4)}
			n := &Node{DB: b, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			n.WatchLogouts(ctx, &wg, s)
			waitFor(t, "listening", func() bool { return s.forgets.Load() > 0 })
			if backend == "postgres" {
				a, err := store.Open(context.Background(), dsn, "")
				if err != nil {
					t.Fatal(err)
				}
				defer a.Close()
				before := s.forgets.Load()
				cutListener(t, dsn)
				waitFor(t, "forgetting after the cut", func() bool { return s.forgets.Load() > before })
				// logouts are heard again once the watcher listens anew
				deadline := time.Now().Add(10 * time.Second)
				for i := 0; ; i++ {
					id := fmt.Sprintf("after-the-cut-%d", i)
					if err := a.RevokeSession(context.Background(), id, time.Now().Add(time.Hour).UnixMilli()); err != nil {
						t.Fatal(err)
					}
					select {
					case got := <-s.marked:
						if !strings.HasPrefix(got, "after-the-cut-") {
							t.Fatalf("heard %q", got)
						}
					case <-time.After(200 * time.Millisecond):
						if time.Now().After(deadline) {
							t.Fatal("no logout heard within 10 s of the cut")
						}
						continue
					}
					break
				}
			}
			cancel()
			wg.Wait()
		})
	}
}

// cutListener ends the server sessions that LISTEN on the database, as a
// network failure or a restarted PostgreSQL would.
func cutListener(t *testing.T, dsn string) {
	t.Helper()
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	var cut int
	err = admin.QueryRow(`SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`).Scan(&cut)
	if err != nil || cut == 0 {
		t.Fatalf("cut the listener: %d sessions, %v", cut, err)
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 10 s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
