package app_test

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

// nodes starts n Trove processes' worth of apps on one database: on
// PostgreSQL n apps sharing a fresh database; on SQLite, which one process
// owns, one app (callers then act on it from n goroutines).
func nodes(t *testing.T, backend string, n int, opts ...testenv.Option) []*testenv.Env {
	t.Helper()
	if backend != "postgres" {
		return []*testenv.Env{testenv.New(t, backend, opts...)}
	}
	dsn := testenv.NewPostgresDB(t)
	shared := append([]testenv.Option{func(c *config.Config) { c.DB = dsn }}, opts...)
	out := make([]*testenv.Env, n)
	for i := range out {
		out[i] = testenv.New(t, backend, shared...)
	}
	return out
}

// TestLogoutReachesEveryNode logs a token out on node A and polls node B
// until it refuses the token, which must happen within a second. B has
// used the token just before, so its "not revoked" answer is cached. On
// SQLite A and B are the one process.
func TestLogoutReachesEveryNode(t *testing.T) {
	for _, backend := range testenv.Backends() {
		t.Run(backend, func(t *testing.T) {
			ns := nodes(t, backend, 2)
			a, b := ns[0], ns[len(ns)-1]
			for round := 0; round < 3; round++ {
				tok := a.Login(t, testenv.AdminKey, testenv.AdminSecret)
				b.CallAs(t, tok, "projects.get_all", map[string]any{}).OK(t)
				a.CallAs(t, tok, "auth.logout", map[string]any{}).OK(t)
				start := time.Now()
				deadline := start.Add(time.Second)
				for {
					r := b.CallAs(t, tok, "projects.get_all", map[string]any{})
					if r.Status == 401 {
						break
					}
					if time.Now().After(deadline) {
						t.Fatalf("round %d: node B still accepts the token 1 s after the logout on A (status %d)", round, r.Status)
					}
					time.Sleep(10 * time.Millisecond)
				}
				t.Logf("round %d: refused on B after %s", round, time.Since(start).Round(time.Millisecond))
			}
		})
	}
}

// TestUserChangesReachEveryNode: a change of a user or key made on node
// A (role lowered, key revoked, user deleted) stops that user's live token
// on node B once B's cached view of the user is RevocationTTL old, with
// no message between the nodes: B's clock is driven past the bound. On
// PostgreSQL B still accepts the token just before the bound (what B
// read stands for the TTL); on SQLite A and B are one process, which
// refuses at once.
func TestUserChangesReachEveryNode(t *testing.T) {
	bob := auth.FixedUser{ID: "bob-id", Name: "bob", AccessKey: "BOBKEY0000000000000000000000", SecretKey: "bob-secret-000000000000000000000000000000"}
	root := auth.FixedUser{ID: "root-id", Name: "root", AccessKey: "ROOTKEY0000000000000000000000", SecretKey: "root-secret-00000000000000000000000000000", Role: auth.RoleRoot}
	for _, c := range []struct {
		name   string
		change func(t *testing.T, a *testenv.Env, bobTok string)
	}{
		{"role lowered", func(t *testing.T, a *testenv.Env, _ string) {
			a.Call(t, "auth.edit_user", map[string]any{"user": bob.ID, "role": "guest"}).OK(t)
		}},
		{"key revoked", func(t *testing.T, a *testenv.Env, bobTok string) {
			a.CallAs(t, bobTok, "auth.revoke_credentials", map[string]any{"access_key": bob.AccessKey}).OK(t)
		}},
		{"user deleted", func(t *testing.T, a *testenv.Env, _ string) {
			a.CallAs(t, a.Login(t, root.AccessKey, root.SecretKey), "users.delete", map[string]any{"user": bob.ID}).OK(t)
		}},
	} {
		for _, backend := range testenv.Backends() {
			t.Run(c.name+"/"+backend, func(t *testing.T) {
				ns := nodes(t, backend, 2, testenv.WithUsers(bob, root))
				a, b := ns[0], ns[len(ns)-1]
				var mu sync.Mutex
				now := time.Now()
				b.App.Deps.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
				advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }

				tok := a.Login(t, bob.AccessKey, bob.SecretKey)
				b.CallAs(t, tok, "projects.get_all", map[string]any{}).OK(t)
				c.change(t, a, tok)
				if backend == "postgres" {
					advance(auth.RevocationTTL - time.Millisecond)
					b.CallAs(t, tok, "projects.get_all", map[string]any{}).OK(t)
					advance(time.Millisecond)
				}
				r := b.CallAs(t, tok, "projects.get_all", map[string]any{}).Err(t, 401, 30)
				if r.Msg() != "Invalid token (revoked token)" {
					t.Fatalf("node B: %s", r.Raw)
				}
				a.CallAs(t, tok, "projects.get_all", map[string]any{}).Err(t, 401, 30)
			})
		}
	}
}

// TestBackgroundJobsOnSeveralNodes sets up work for every background job
// (silent tasks, queues due a metrics sample, expired workers, old
// statistics), runs all jobs on two nodes at once for a few rounds, and
// checks the outcome is the one a single node gives, without errors.
func TestBackgroundJobsOnSeveralNodes(t *testing.T) {
	for _, backend := range testenv.Backends() {
		t.Run(backend, func(t *testing.T) {
			one := jobOutcome(t, backend, 1)
			two := jobOutcome(t, backend, 2)
			if !reflect.DeepEqual(one, two) {
				t.Fatalf("two nodes differ from one:\n one: %v\n two: %v", one, two)
			}
			want := map[string]string{
				"task silent 0": "stopped", "task silent 1": "stopped", "task silent 2": "stopped",
				"task recent": "in_progress", "workers": "[recent]", "old stats": "0",
			}
			for k, v := range want {
				if one[k] != v {
					t.Errorf("%s = %q, want %q (the jobs did not do their work)", k, one[k], v)
				}
			}
			for i := 0; i < 3; i++ {
				if k := fmt.Sprintf("queue %d samples", i); one[k] != "1" {
					t.Errorf("%s = %q, want one sample taken by the metrics job", k, one[k])
				}
			}
		})
	}
}

// jobOutcome builds the fixture on n nodes, runs the jobs and describes
// what they left.
func jobOutcome(t *testing.T, backend string, n int) map[string]string {
	t.Helper()
	ns := nodes(t, backend, n, func(c *config.Config) { c.StatsRetention = config.DefaultStatsRetention })
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	// each reading of the clock moves it on a millisecond, so a queue
	// sampled twice shows two samples
	var clock atomic.Int64
	clock.Store(now.Add(-3 * time.Hour).UnixMilli())
	for _, e := range ns {
		e.App.Deps.Now = func() time.Time { return time.UnixMilli(clock.Add(1)).UTC() }
	}
	e := ns[0]
	for i := 0; i < 3; i++ {
		task := e.Call(t, "tasks.create", map[string]any{"name": fmt.Sprintf("task silent %d", i), "type": "training"}).OK(t).Str("id")
		e.Call(t, "tasks.started", map[string]any{"task": task}).OK(t)
	}
	queues := map[string]string{}
	for i := 0; i < 3; i++ {
		queues[e.Call(t, "queues.create", map[string]any{"name": fmt.Sprintf("queue %d", i)}).OK(t).Str("id")] = fmt.Sprintf("queue %d", i)
	}
	e.Call(t, "workers.register", map[string]any{"worker": "expired", "timeout": 60}).OK(t)
	e.Call(t, "workers.status_report", map[string]any{"worker": "expired", "timestamp": now.AddDate(0, 0, -40).UnixMilli(),
		"machine_stats": map[string]any{"cpu_usage": []float64{1}}}).OK(t)
	clock.Store(now.UnixMilli())
	recent := e.Call(t, "tasks.create", map[string]any{"name": "task recent", "type": "training"}).OK(t).Str("id")
	e.Call(t, "tasks.started", map[string]any{"task": recent}).OK(t)
	e.Call(t, "workers.register", map[string]any{"worker": "recent", "timeout": 600}).OK(t)

	// every node (on SQLite every goroutine) runs every job, together
	runners := max(n, len(ns))
	for round := 0; round < 3; round++ {
		var wg sync.WaitGroup
		errs := make(chan error, runners)
		for i := 0; i < runners; i++ {
			wg.Add(1)
			go func(node *testenv.Env) {
				defer wg.Done()
				errs <- node.App.RunJobsOnce(context.Background())
			}(ns[i%len(ns)])
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("%d nodes, round %d: %v", n, round, err)
			}
		}
	}
	return describe(t, e, queues, now)
}

// describe reads what the jobs leave behind: task statuses, metric
// samples per queue, the workers left and the statistics older than the
// retention.
func describe(t *testing.T, e *testenv.Env, queues map[string]string, now time.Time) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, task := range e.Call(t, "tasks.get_all", map[string]any{"only_fields": []string{"name", "status"}}).OK(t).List("tasks") {
		m := task.(map[string]any)
		out[fmt.Sprint(m["name"])] = fmt.Sprint(m["status"])
	}
	db, ctx := e.App.DB, context.Background()
	ids := make([]string, 0, len(queues))
	for id := range queues {
		ids = append(ids, id)
	}
	samples, err := db.TopQueueSamples(ctx, db.Read(), store.QueueSampleRange{Company: auth.DefaultCompanyID,
		From: now.UnixMilli(), To: now.Add(time.Hour).UnixMilli(), Queues: ids, Bucket: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		n := 0
		for _, s := range samples {
			if s.Queue == id {
				n++
			}
		}
		out[queues[id]+" samples"] = fmt.Sprint(n)
	}
	workers, err := db.LiveWorkers(ctx, db.Read(), auth.DefaultCompanyID, 0, store.WorkerFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, w := range workers {
		names = append(names, w.ID)
	}
	out["workers"] = fmt.Sprint(names)
	old, err := db.AggregateWorkerStats(ctx, db.Read(), store.StatsRange{Company: auth.DefaultCompanyID,
		From: 0, To: now.AddDate(0, 0, -31).UnixMilli(), Bucket: 1}, []string{"cpu_usage"}, true)
	if err != nil {
		t.Fatal(err)
	}
	out["old stats"] = fmt.Sprint(len(old))
	return out
}
