package app_test

import (
	"context"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

// TestStatsRetention reports queue changes and worker statistics 40, 20
// and 0 days before a fixed now, keeps 30 days, and checks that only the
// oldest samples are pruned.
func TestStatsRetention(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
		clock := now
		e.App.Deps.Now = func() time.Time { return clock }
		queue := e.Call(t, "queues.create", map[string]any{"name": "kept"}).OK(t).Str("id")
		for i, age := range []int{40, 20, 0} {
			clock = now.AddDate(0, 0, -age)
			task := e.Call(t, "tasks.create", map[string]any{"name": "sampled task", "type": "training"}).OK(t).Str("id")
			e.Call(t, "queues.add_task", map[string]any{"queue": queue, "task": task}).OK(t)
			e.Call(t, "workers.status_report", map[string]any{"worker": "agent", "timestamp": clock.UnixMilli(),
				"machine_stats": map[string]any{"cpu_usage": []float64{float64(i + 1)}}}).OK(t)
		}
		clock = now
		ctx := context.Background()
		queueSamples, statDays := samples(t, e, queue, now)
		if queueSamples[40] == 0 || statDays[40] == 0 || queueSamples[0] == 0 || statDays[0] == 0 {
			t.Fatalf("samples were not recorded: queue %v, stats %v", queueSamples, statDays)
		}
		n, err := e.App.PruneStats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if want := int64(queueSamples[40] + statDays[40]); n != want {
			t.Fatalf("pruned %d rows, want %d", n, want)
		}
		queueSamples, statDays = samples(t, e, queue, now)
		if queueSamples[40] != 0 || statDays[40] != 0 {
			t.Fatalf("samples older than 30 days survived: queue %v, stats %v", queueSamples, statDays)
		}
		if queueSamples[20] == 0 || statDays[20] == 0 || queueSamples[0] == 0 || statDays[0] == 0 {
			t.Fatalf("recent samples were pruned: queue %v, stats %v", queueSamples, statDays)
		}
		if n, err := e.App.PruneStats(ctx); err != nil || n != 0 {
			t.Fatalf("second prune: %d, %v", n, err)
		}
	}, func(c *config.Config) { c.StatsRetention = config.DefaultStatsRetention })
}

// TestStatsRetentionOff keeps everything when the retention is 0, even
// statistics reported six years ago.
func TestStatsRetentionOff(t *testing.T) {
	e := testenv.New(t, "sqlite", func(c *config.Config) { c.StatsRetention = 0 })
	e.Call(t, "workers.status_report", map[string]any{"worker": "agent", "timestamp": time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli(),
		"machine_stats": map[string]any{"cpu_usage": []float64{1}}}).OK(t)
	if n, err := e.App.PruneStats(context.Background()); err != nil || n != 0 {
		t.Fatalf("prune with retention off: %d, %v", n, err)
	}
}

// samples counts, by age in days before now, the queue's metric samples and
// the stored worker statistics.
func samples(t *testing.T, e *testenv.Env, queue string, now time.Time) (queueByAge, statsByAge map[int]int) {
	t.Helper()
	db, ctx := e.App.DB, context.Background()
	day := int64(24 * time.Hour / time.Millisecond)
	age := func(at int64) int { return int((now.UnixMilli() - at + day/2) / day) }
	queueByAge, statsByAge = map[int]int{}, map[int]int{}
	qs, err := db.TopQueueSamples(ctx, db.Read(), store.QueueSampleRange{Company: auth.DefaultCompanyID,
		From: 0, To: now.UnixMilli(), Queues: []string{queue}, Bucket: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range qs {
		queueByAge[age(s.At)]++
	}
	buckets, err := db.AggregateWorkerStats(ctx, db.Read(), store.StatsRange{Company: auth.DefaultCompanyID,
		From: 0, To: now.UnixMilli(), Bucket: 1}, []string{"cpu_usage"}, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range buckets {
		statsByAge[age(b.At)]++
	}
	return queueByAge, statsByAge
}
