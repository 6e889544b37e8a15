package metrics

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/trove-ml/trove/internal/store"
)

// scrapeTimeout bounds the store reads of one scrape.
const scrapeTimeout = 5 * time.Second

// storeCollector reads queues, workers and connection pools at scrape
// time, so every API node reports the shared state without bookkeeping.
type storeCollector struct {
	db  *store.DB
	now func() time.Time

	queueLength, queueOldest, queueMean *prometheus.Desc
	workers                             *prometheus.Desc
	poolOpen, poolInUse, poolIdle       *prometheus.Desc
	poolMax, poolWaits, poolWaitSeconds *prometheus.Desc
}

func newStoreCollector(db *store.DB, now func() time.Time) *storeCollector {
	queue := []string{"queue", "queue_id"}
	pool := []string{"pool"}
	return &storeCollector{db: db, now: now,
		queueLength: prometheus.NewDesc("trove_queue_length", "Entries waiting in the queue.", queue, nil),
		queueOldest: prometheus.NewDesc("trove_queue_oldest_wait_seconds", "How long the queue's oldest entry has waited.", queue, nil),
		queueMean:   prometheus.NewDesc("trove_queue_mean_wait_seconds", "How long the queue's entries have waited on average.", queue, nil),
		workers:     prometheus.NewDesc("trove_workers", "Registered workers alive, by state (idle or running a task).", []string{"state"}, nil),
		poolOpen:    prometheus.NewDesc("trove_db_pool_open_connections", "Open database connections.", pool, nil),
		poolInUse:   prometheus.NewDesc("trove_db_pool_in_use_connections", "Database connections in use.", pool, nil),
		poolIdle:    prometheus.NewDesc("trove_db_pool_idle_connections", "Idle database connections.", pool, nil),
		poolMax:     prometheus.NewDesc("trove_db_pool_max_open_connections", "Limit of open database connections (0 = none).", pool, nil),
		poolWaits:   prometheus.NewDesc("trove_db_pool_waits_total", "Times a caller waited for a free database connection.", pool, nil),
		poolWaitSeconds: prometheus.NewDesc("trove_db_pool_wait_seconds_total",
			"Time spent waiting for a free database connection.", pool, nil),
	}
}

// Describe implements prometheus.Collector.
func (c *storeCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.queueLength, c.queueOldest, c.queueMean, c.workers,
		c.poolOpen, c.poolInUse, c.poolIdle, c.poolMax, c.poolWaits, c.poolWaitSeconds} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *storeCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
	defer cancel()
	now := c.now()
	c.collectQueues(ctx, ch, now)
	c.collectWorkers(ctx, ch, now)
	c.collectPools(ch)
}

func (c *storeCollector) collectQueues(ctx context.Context, ch chan<- prometheus.Metric, now time.Time) {
	qs, err := c.db.QueueStats(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.queueLength, err)
		return
	}
	nowMs := float64(now.UnixMilli())
	for _, q := range qs {
		var oldest, mean float64
		if q.Length > 0 {
			oldest = (nowMs - float64(q.OldestAdded)) / 1000
			mean = (nowMs*float64(q.Length) - float64(q.SumAdded)) / float64(q.Length) / 1000
		}
		ch <- prometheus.MustNewConstMetric(c.queueLength, prometheus.GaugeValue, float64(q.Length), q.Name, q.ID)
		ch <- prometheus.MustNewConstMetric(c.queueOldest, prometheus.GaugeValue, max(oldest, 0), q.Name, q.ID)
		ch <- prometheus.MustNewConstMetric(c.queueMean, prometheus.GaugeValue, max(mean, 0), q.Name, q.ID)
	}
}

func (c *storeCollector) collectWorkers(ctx context.Context, ch chan<- prometheus.Metric, now time.Time) {
	live, running, err := c.db.WorkerCounts(ctx, now.UnixMilli())
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.workers, err)
		return
	}
	ch <- prometheus.MustNewConstMetric(c.workers, prometheus.GaugeValue, float64(live-running), "idle")
	ch <- prometheus.MustNewConstMetric(c.workers, prometheus.GaugeValue, float64(running), "running")
}

func (c *storeCollector) collectPools(ch chan<- prometheus.Metric) {
	for _, p := range c.db.PoolStats() {
		ch <- prometheus.MustNewConstMetric(c.poolOpen, prometheus.GaugeValue, float64(p.OpenConnections), p.Pool)
		ch <- prometheus.MustNewConstMetric(c.poolInUse, prometheus.GaugeValue, float64(p.InUse), p.Pool)
		ch <- prometheus.MustNewConstMetric(c.poolIdle, prometheus.GaugeValue, float64(p.Idle), p.Pool)
		ch <- prometheus.MustNewConstMetric(c.poolMax, prometheus.GaugeValue, float64(p.MaxOpenConnections), p.Pool)
		ch <- prometheus.MustNewConstMetric(c.poolWaits, prometheus.CounterValue, float64(p.WaitCount), p.Pool)
		ch <- prometheus.MustNewConstMetric(c.poolWaitSeconds, prometheus.CounterValue, p.WaitDuration.Seconds(), p.Pool)
	}
}
