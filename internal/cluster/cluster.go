// Package cluster lets several Trove processes serve one PostgreSQL
// database: background jobs run in one process at a time, start-up steps
// one process after the other, and a logout in one process reaches the
// others within a second. On SQLite (one process owns the database) the
// locks are no-ops and there is nothing to hear.
//
// What stays per process, on purpose: the login-failure throttle (each
// process counts the failures it sees), the verified-token cache (a
// token's content never changes; revocation is checked on every call)
// and the prepared statements.
package cluster

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/trove-ml/trove/internal/store"
)

// Node is this process's part in the cluster.
type Node struct {
	DB  *store.DB
	Log *slog.Logger
}

// RunJob runs one run of a background job unless another process is
// running the same job; the jobs are idempotent (each re-checks what it
// changes), so a run skipped here is done by the process holding the lock
// or by this process's next run.
func (n *Node) RunJob(ctx context.Context, name string, fn func(ctx context.Context) error) error {
	_, err := n.DB.Exclusive(ctx, "job:"+name, false, fn)
	return err
}

// Startup runs a start-up step (bootstrap, default queues) while holding
// the start-up lock, so processes starting together take turns.
func (n *Node) Startup(ctx context.Context, fn func(ctx context.Context) error) error {
	_, err := n.DB.Exclusive(ctx, "startup", true, fn)
	return err
}

// Sessions is the cache of logouts that must hear other processes'
// (auth.Service).
type Sessions interface {
	MarkRevoked(session string)
	ForgetRevocationChecks()
}

// forgetEvery is how often cached revocation answers are dropped while no
// notice can be heard: a logout elsewhere still takes effect within it.
const forgetEvery = 500 * time.Millisecond

// WatchLogouts hands other processes' logouts to s until ctx ends, in a
// goroutine counted by wg. When the connection that hears them fails, s
// forgets its answers every forgetEvery until it is back.
func (n *Node) WatchLogouts(ctx context.Context, wg *sync.WaitGroup, s Sessions) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		backoff := forgetEvery
		for {
			// Anything sent before listening started is missed: ready
			// forgets.
			listening := false
			ready := func() { listening = true; s.ForgetRevocationChecks() }
			err := n.DB.WatchRevocations(ctx, ready, s.MarkRevoked)
			if ctx.Err() != nil {
				return
			}
			if listening {
				backoff = forgetEvery
			}
			n.Log.Warn("not hearing other processes' logouts; checking the store instead", "error", err, "retry_in", backoff.String())
			if !forgetFor(ctx, backoff, s) {
				return
			}
			backoff = min(backoff*2, 10*time.Second)
		}
	}()
}

// forgetFor waits d, dropping s's cached answers every forgetEvery; it
// reports false when ctx ended.
func forgetFor(ctx context.Context, d time.Duration, s Sessions) bool {
	end := time.NewTimer(d)
	defer end.Stop()
	tick := time.NewTicker(forgetEvery)
	defer tick.Stop()
	for {
		s.ForgetRevocationChecks()
		select {
		case <-ctx.Done():
			return false
		case <-end.C:
			return true
		case <-tick.C:
		}
	}
}
