package app_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/trove-ml/trove/internal/config"
	"github.com/trove-ml/trove/internal/testenv"
)

// scrape reads /metrics with the Prometheus text parser.
func scrape(t *testing.T, e *testenv.Env) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(e.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("/metrics: %s", resp.Status)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	return fams
}

// value is the counter, gauge or histogram count of the family's series
// with these labels (-1 when absent).
func value(fams map[string]*dto.MetricFamily, name string, labels map[string]string) float64 {
	f := fams[name]
	if f == nil {
		return -1
	}
	for _, m := range f.Metric {
		have := map[string]string{}
		for _, l := range m.Label {
			have[l.GetName()] = l.GetValue()
		}
		match := true
		for k, v := range labels {
			if have[k] != v {
				match = false
			}
		}
		if !match {
			continue
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue()
		case m.Gauge != nil:
			return m.Gauge.GetValue()
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount())
		}
	}
	return -1
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestMetricsMoveWithCalls(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		before := scrape(t, e)
		for _, name := range []string{"go_goroutines", "process_cpu_seconds_total", "trove_db_pool_open_connections", "trove_workers"} {
			if before[name] == nil {
				t.Errorf("/metrics lacks %s", name)
			}
		}
		create := map[string]string{"operation": "tasks.create", "status": "200"}
		if v := value(before, "trove_api_requests_total", create); v > 0 {
			t.Fatalf("tasks.create counted before any call: %v", v)
		}
		queue := e.Call(t, "queues.create", map[string]any{"name": "metered"}).OK(t).Str("id")
		task := e.Call(t, "tasks.create", map[string]any{"name": "metered task", "type": "training"}).OK(t).Str("id")
		e.Call(t, "tasks.create", map[string]any{"name": 5}).Err(t, 400, 12)
		e.Call(t, "queues.add_task", map[string]any{"queue": queue, "task": task}).OK(t)
		e.Call(t, "nosuch.operation", nil).Err(t, 404, 0)
		lines := []string{}
		for i := 0; i < 3; i++ {
			b, _ := json.Marshal(map[string]any{"type": "training_stats_scalar", "task": task, "metric": "loss", "variant": "v", "iter": i, "value": 1.5})
			lines = append(lines, string(b))
		}
		e.Do(t, "events.add_batch", strings.Join(lines, "\n"), func(h http.Header) {
			h.Set("Authorization", "Bearer "+e.Token)
			h.Set("Content-Type", "application/json-lines")
		}).OK(t)
		e.Call(t, "workers.status_report", map[string]any{"worker": "metered-agent", "task": task, "timestamp": time.Now().UnixMilli(),
			"machine_stats": map[string]any{"cpu_usage": []float64{5}}}).OK(t)

		after := scrape(t, e)
		checks := []struct {
			name   string
			labels map[string]string
			want   float64
		}{
			{"trove_api_requests_total", create, 1},
			{"trove_api_requests_total", map[string]string{"operation": "tasks.create", "status": "400"}, 1},
			{"trove_api_requests_total", map[string]string{"operation": "unknown", "status": "404"}, 1},
			{"trove_api_request_duration_seconds", map[string]string{"operation": "events.add_batch"}, 1},
			{"trove_events_ingested_total", nil, value(before, "trove_events_ingested_total", nil) + 3},
			{"trove_queue_length", map[string]string{"queue": "metered", "queue_id": queue}, 1},
			{"trove_workers", map[string]string{"state": "running"}, 1},
		}
		for _, c := range checks {
			if got := value(after, c.name, c.labels); got != c.want {
				t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
			}
		}
		if value(after, "trove_queue_oldest_wait_seconds", map[string]string{"queue": "metered"}) < 0 {
			t.Errorf("no wait gauge for the queue")
		}
		ok := map[string]string{"result": "ok"}
		if value(after, "trove_db_transaction_duration_seconds", ok) <= value(before, "trove_db_transaction_duration_seconds", ok) {
			t.Errorf("write transactions were not timed")
		}
		for _, m := range after["trove_api_requests_total"].GetMetric() {
			for _, l := range m.Label {
				if l.GetValue() == "nosuch.operation" {
					t.Errorf("an unknown path became a label")
				}
			}
		}
	})
}

func TestMetricsSwitchedOff(t *testing.T) {
	e := testenv.New(t, "sqlite", func(c *config.Config) { c.Metrics = false })
	if code, body := get(t, e.URL+"/metrics"); code == 200 || strings.Contains(body, "# TYPE") {
		t.Fatalf("/metrics served while switched off: %d %s", code, body)
	}
	if code, _ := get(t, e.URL+"/healthz"); code != 200 {
		t.Fatalf("/healthz: %d", code)
	}
}

func TestHealthAndReadiness(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		if code, body := get(t, e.URL+"/healthz"); code != 200 || body != "ok\n" {
			t.Fatalf("/healthz: %d %q", code, body)
		}
		if code, body := get(t, e.URL+"/readyz"); code != 200 || body != "ready\n" {
			t.Fatalf("/readyz: %d %q", code, body)
		}
		// The API still owns every other path.
		e.Call(t, "debug.ping", nil).OK(t)
		// A node whose database went away is alive but not ready.
		if err := e.App.DB.Close(); err != nil {
			t.Fatal(err)
		}
		if code, body := get(t, e.URL+"/readyz"); code != 503 || !strings.HasPrefix(body, "not ready: ") {
			t.Fatalf("/readyz without a database: %d %q", code, body)
		}
		if code, _ := get(t, e.URL+"/healthz"); code != 200 {
			t.Fatalf("/healthz without a database: %d", code)
		}
	})
}
