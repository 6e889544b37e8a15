package workers_test

import (
	"context"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain/domaintest"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/workers"
)

var caller = workers.Caller{Company: domaintest.Company, User: domaintest.User, IP: "10.0.0.1"}

func addQueue(t *testing.T, e *domaintest.Env, id, name string) {
	t.Helper()
	now := e.Time()
	qu := &store.Queue{ID: id, Company: domaintest.Company, Name: name, Created: now, LastUpdate: now, Tags: []string{}, SystemTags: []string{}}
	if err := e.DB.Tx(context.Background(), func(q store.Querier) error { return e.DB.Queues().Insert(context.Background(), q, qu) }); err != nil {
		t.Fatal(err)
	}
}

func addTask(t *testing.T, e *domaintest.Env, id, name string) {
	t.Helper()
	now := e.Time()
	task := &store.Task{ID: id, Company: domaintest.Company, User: domaintest.User, Name: name, Type: "training", Status: "in_progress", Created: now, LastUpdate: now}
	if err := e.DB.Tx(context.Background(), func(q store.Querier) error { return e.DB.Tasks().Insert(context.Background(), q, task) }); err != nil {
		t.Fatal(err)
	}
}

func TestRegisterChecksQueues(t *testing.T) {
	domaintest.Each(t, func(t *testing.T, e *domaintest.Env) {
		ctx := context.Background()
		addQueue(t, e, "q1", "first")
		err := workers.Register(ctx, &e.Env, caller, workers.Registration{Worker: "w1", Queues: []string{"q1", "nope"}})
		if !apierr.Is(err, 400, 701) || apierr.As(err).Data["queue"] != "nope" {
			t.Fatalf("unknown queue: %v", err)
		}
		if err := workers.Register(ctx, &e.Env, caller, workers.Registration{Worker: "w1", Queues: []string{"q1"}}); err != nil {
			t.Fatal(err)
		}
		list, err := workers.List(ctx, &e.Env, caller.Company, workers.Filter{})
		if err != nil || len(list) != 1 {
			t.Fatalf("list %v %v", list, err)
		}
		w := list[0]
		if w.ID != "w1" || w.IP != "10.0.0.1" || w.RegisterTimeout != workers.DefaultTimeout || w.User.Name != "Test User" ||
			len(w.Queues) != 1 || w.Queues[0].Name != "first" || w.Current != nil || w.Tags == nil {
			t.Fatalf("worker %+v queues %+v", w.Worker, w.Queues)
		}
		// Past its timeout the worker is gone.
		e.Clock = e.Clock.Add(workers.DefaultTimeout * time.Second)
		if n, _ := workers.Find(ctx, &e.Env, caller.Company, workers.Filter{}); len(n) != 0 {
			t.Fatalf("expired worker listed: %v", n)
		}
		if err := workers.SweepExpired(ctx, &e.Env); err != nil {
			t.Fatal(err)
		}
	})
}

func TestReportStatus(t *testing.T) {
	domaintest.Each(t, func(t *testing.T, e *domaintest.Env) {
		ctx := context.Background()
		addQueue(t, e, "q1", "first")
		addTask(t, e, "t1", "training run")
		cpu, mem := []float64{10, 30}, 512.0
		report := workers.StatusReport{Worker: "w1", Timestamp: float64(e.Clock.Unix()), Task: "t1", Queue: "q1", Queues: []string{"q1"},
			MachineStats: &workers.MachineStats{CPUUsage: cpu, MemoryUsed: &mem}}
		if err := workers.ReportStatus(ctx, &e.Env, caller, report); err != nil {
			t.Fatal(err)
		}
		list, err := workers.List(ctx, &e.Env, caller.Company, workers.Filter{Pattern: "w?"})
		if err != nil || len(list) != 1 {
			t.Fatalf("list %v %v", list, err)
		}
		w := list[0]
		if w.Task == nil || w.Task.Name != "training run" || w.Current == nil || w.Current.ID != "q1" || w.LastReportTime == nil {
			t.Fatalf("reported worker %+v", w.Worker)
		}
		task, err := e.DB.Tasks().Get(ctx, e.DB.Read(), "t1")
		if err != nil || task.LastWorker != "w1" {
			t.Fatalf("task %+v %v", task, err)
		}
		if l, _ := workers.Find(ctx, &e.Env, caller.Company, workers.Filter{Pattern: "x*"}); len(l) != 0 {
			t.Fatalf("pattern x* matched %v", l)
		}

		// An unknown task fails the call, yet the activity is saved.
		e.Clock = e.Clock.Add(time.Minute)
		report.Task, report.MachineStats = "missing", nil
		if err := workers.ReportStatus(ctx, &e.Env, caller, report); !apierr.Is(err, 400, 101) {
			t.Fatalf("unknown task: %v", err)
		}
		if l, _ := workers.Find(ctx, &e.Env, caller.Company, workers.Filter{LastSeen: 1}); len(l) != 1 {
			t.Fatalf("activity of the failed report not saved: %v", l)
		}

		keys, err := workers.MetricKeys(ctx, &e.Env, caller.Company, nil)
		if err != nil || len(keys) != 2 || keys[0].Name != "cpu" || keys[1].Name != "memory" {
			t.Fatalf("metric keys %+v %v", keys, err)
		}
		r := workers.Range{Company: caller.Company, From: float64(e.Clock.Unix() - 600), To: float64(e.Clock.Unix() + 60), Interval: 60}
		stats, err := workers.Stats(ctx, &e.Env, r, []workers.StatItem{{Metric: "cpu_usage", Aggregation: "max"}}, false, false)
		if err != nil || len(stats) != 1 || len(stats[0].Metrics) != 1 {
			t.Fatalf("stats %+v %v", stats, err)
		}
		found := false
		for _, v := range stats[0].Metrics[0].Stats[0].Values {
			found = found || v == 30
		}
		if !found {
			t.Fatalf("max cpu_usage 30 not in %+v", stats[0].Metrics[0].Stats[0])
		}
		total, active, err := workers.ActivityReport(ctx, &e.Env, r)
		if err != nil || sum(total.Counts) != 1 || sum(active.Counts) != 1 || len(total.Dates) != len(total.Counts) {
			t.Fatalf("activity %+v %+v %v", total, active, err)
		}
	})
}

func TestMetricKeysWithoutStatistics(t *testing.T) {
	domaintest.Each(t, func(t *testing.T, e *domaintest.Env) {
		_, err := workers.MetricKeys(context.Background(), &e.Env, caller.Company, []string{"w1"})
		if apierr.As(err) == nil {
			t.Fatalf("no statistics: %v", err)
		}
	})
}

func sum(l []int) int {
	n := 0
	for _, v := range l {
		n += v
	}
	return n
}
