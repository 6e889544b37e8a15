// Package metrics is Trove's Prometheus instrumentation, all in one place:
// API calls (count, status, latency), events ingested, database
// transactions and pools, queues and workers read from the store at scrape
// time, and the Go runtime. The app wires it to the RPC server's observer
// hook and the store's transaction hook, and serves Handler on /metrics.
package metrics

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/trove-ml/trove/internal/store"
)

// latencyBuckets span a cached read (a millisecond) to a large event
// batch or list query (tens of seconds).
var latencyBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}

// unknownOperation labels calls whose path named no registered operation,
// so random paths cannot grow the label set.
const unknownOperation = "unknown"

// ingestOperations answer {"added": n}: the events they stored.
var ingestOperations = map[string]bool{"events.add": true, "events.add_batch": true}

// Metrics holds Trove's collectors in a registry of its own.
type Metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	ingested prometheus.Counter
	tx       *prometheus.HistogramVec
}

// New registers every collector; db is read at scrape time and now is the
// clock for queue waits and worker expiry.
func New(db *store.DB, now func() time.Time) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "trove_api_requests_total",
			Help: "API calls by operation and HTTP status.",
		}, []string{"operation", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "trove_api_request_duration_seconds",
			Help:    "API call latency by operation.",
			Buckets: latencyBuckets,
		}, []string{"operation"}),
		ingested: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "trove_events_ingested_total",
			Help: "Events stored by events.add and events.add_batch.",
		}),
		tx: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "trove_db_transaction_duration_seconds",
			Help:    "Write transaction time (retries included) by result.",
			Buckets: latencyBuckets,
		}, []string{"result"}),
	}
	m.reg.MustRegister(m.requests, m.latency, m.ingested, m.tx,
		newStoreCollector(db, now),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return m
}

// Handler serves the registry in the Prometheus text (or negotiated) format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{
		// A failing store query must not hide the other metrics.
		ErrorHandling: promhttp.ContinueOnError,
	})
}

// Registry is the registry behind Handler.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// ObserveCall records one finished API call; operation is "" when the path
// named no registered operation, result is the handler's answer (nil on
// errors).
func (m *Metrics) ObserveCall(operation string, status int, d time.Duration, result any) {
	if operation == "" {
		operation = unknownOperation
	}
	m.requests.WithLabelValues(operation, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(operation).Observe(d.Seconds())
	if status == http.StatusOK && ingestOperations[operation] && result != nil {
		m.ingested.Add(float64(added(result)))
	}
}

// added reads the "added" count of an ingest answer through its wire
// form, the contract the SDK also relies on.
func added(result any) int {
	b, err := json.Marshal(result)
	if err != nil {
		return 0
	}
	var r struct {
		Added int `json:"added"`
	}
	if json.Unmarshal(b, &r) != nil {
		return 0
	}
	return r.Added
}

// ObserveTx records one write transaction.
func (m *Metrics) ObserveTx(d time.Duration, err error) {
	result := "ok"
	if err != nil {
		result = "error"
	}
	m.tx.WithLabelValues(result).Observe(d.Seconds())
}
