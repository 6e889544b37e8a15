package serving_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/testenv"
)

type obj = map[string]any

// clock is a settable test clock installed as the server's clock.
type clock struct{ now time.Time }

func fixClock(e *testenv.Env, start time.Time) *clock {
	c := &clock{now: start}
	e.App.Deps.Now = func() time.Time { return c.now }
	return c
}

func container(id, url string, extra obj) obj {
	o := obj{"container_id": id, "endpoint_name": "ep", "model_name": "m", "input_size": 9000000, "tags": []string{"b", "a"}}
	if url != "" {
		o["endpoint_url"] = url
	}
	for k, v := range extra {
		o[k] = v
	}
	return o
}

func asJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// A container registers (loading, without a URL), then reports with its
// URL; the endpoint summary adds up its containers, the details list each,
// and unregistering removes it.
func TestServingContainerLifecycle(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		t0 := time.Date(2025, 5, 1, 10, 0, 0, 0, time.UTC)
		clk := fixClock(e, t0)
		url := "http://serve/ep"
		ref := []obj{{"type": "model", "value": "m1"}}
		e.Call(t, "serving.register_container", container("c1", "", obj{"timeout": 100, "reference": ref})).OK(t)
		r := e.Call(t, "serving.get_loading_instances", nil).OK(t)
		if n := len(r.List("instances")); n != 1 || r.Str("instances.0.id") != "c1" || r.Str("instances.0.input_size") != "9000000" {
			t.Fatalf("loading: %s", r.Raw)
		}
		if len(e.Call(t, "serving.get_endpoints", nil).OK(t).List("endpoints")) != 0 {
			t.Fatal("a loading container has no endpoint")
		}
		clk.now = t0.Add(10 * time.Second)
		stats := obj{"cpu_usage": []float64{10, 30}, "memory_used": 2048}
		e.Call(t, "serving.container_status_report", container("c1", url, obj{"uptime_sec": 50, "requests_num": 10,
			"requests_min": 1.5, "latency_ms": 20, "machine_stats": stats, "reference": ref})).OK(t)
		e.Call(t, "serving.container_status_report", container("c2", url, obj{"uptime_sec": 70, "requests_num": 5,
			"requests_min": 2, "latency_ms": 41})).OK(t)
		if n := len(e.Call(t, "serving.get_loading_instances", nil).OK(t).List("instances")); n != 0 {
			t.Fatalf("reported containers are no longer loading: %d", n)
		}
		r = e.Call(t, "serving.get_endpoints", nil).OK(t)
		want := `[{"endpoint":"ep","instances":2,"last_update":"2025-05-01T10:00:10+00:00","latency_ms":31,"model":"m","requests":15,"requests_min":1.75,"uptime_sec":70,"url":"http://serve/ep"}]`
		if got := asJSON(r.List("endpoints")); got != want {
			t.Fatalf("endpoints:\n got %s\nwant %s", got, want)
		}
		d := e.Call(t, "serving.get_endpoint_details", obj{"endpoint_url": url}).OK(t)
		if d.Num("uptime_sec") != 70 || d.Str("instances.0.id") != "c1" || d.Num("instances.0.cpu_count") != 2 ||
			d.Num("instances.0.gpu_count") != 0 || asJSON(d.List("instances.0.reference")) != `[{"type":"model","value":"m1"}]` ||
			asJSON(d.List("instances.1.reference")) != `[]` || d.Num("instances.1.requests") != 5 {
			t.Fatalf("details: %s", d.Raw)
		}
		// c1 keeps its 100 s registration timeout; c2, registered by its
		// report, has the default 600 s.
		clk.now = t0.Add(111 * time.Second)
		d = e.Call(t, "serving.get_endpoint_details", obj{"endpoint_url": url}).OK(t)
		if n := len(d.List("instances")); n != 1 || d.Str("instances.0.id") != "c2" {
			t.Fatalf("after c1's timeout: %s", d.Raw)
		}
		e.Call(t, "serving.unregister_container", obj{"container_id": "c2"}).OK(t)
		e.Call(t, "serving.unregister_container", obj{"container_id": "never"}).OK(t)
		e.Call(t, "serving.get_endpoint_details", obj{"endpoint_url": url}).Err(t, 400, 1052)
		if n := len(e.Call(t, "serving.get_endpoints", nil).OK(t).List("endpoints")); n != 0 {
			t.Fatalf("endpoints after unregistering: %d", n)
		}
	})
}

// The charts sample each container per bucket and add up or average the
// samples; dates are bucket starts in epoch ms.
func TestServingMetricsHistory(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		t0 := time.Date(2025, 5, 1, 10, 0, 0, 0, time.UTC) // a multiple of 40 s
		clk := fixClock(e, t0.Add(5*time.Second))
		url := "http://serve/ep"
		for i, id := range []string{"c1", "c2"} {
			n := float64(i + 1)
			e.Call(t, "serving.container_status_report", container(id, url, obj{"requests_num": 1000 * n,
				"latency_ms": 100 * n, "machine_stats": obj{"cpu_usage": []float64{10 * n, 20 * n}, "memory_used": 1024 * n}})).OK(t)
		}
		clk.now = t0.Add(45 * time.Second)
		e.Call(t, "serving.container_status_report", container("c1", url, obj{"requests_num": 3000})).OK(t)
		from, to := float64(t0.Unix()), float64(t0.Unix()+120)
		cases := []struct {
			metric, title, total string
			instances            int
		}{
			{"", "Number of Requests", "[3000,3000]", 2},
			{"latency_ms", "Average Latency (ms)", "[150,0,0]", 2},
			{"cpu_count", "CPU Count", "[4,0,0]", 2},
			{"cpu_util", "Average CPU Load (%)", "[22.5,0,0]", 2},
			{"ram_used", "RAM Used (GB)", "[3,0,0]", 2},
		}
		for _, c := range cases {
			body := obj{"endpoint_url": url, "from_date": from, "to_date": to, "interval": 1}
			if c.metric != "" {
				body["metric_type"] = c.metric
			}
			r := e.Call(t, "serving.get_endpoint_metrics_history", body).OK(t)
			if r.Num("computed_interval") != 40 || r.Str("total.title") != c.title || asJSON(r.List("total.values")) != c.total {
				t.Errorf("%s: %s", c.metric, r.Raw)
			}
			if dates := r.List("total.dates"); dates[0] != float64(t0.UnixMilli()) {
				t.Errorf("%s dates: %v", c.metric, dates)
			}
			if len(r.Data["instances"].(map[string]any)) != c.instances {
				t.Errorf("%s instances: %s", c.metric, r.Raw)
			}
		}
		r := e.Call(t, "serving.get_endpoint_metrics_history", obj{"endpoint_url": url, "from_date": from, "to_date": to,
			"interval": 1, "instance_charts": false}).OK(t)
		if len(r.Data["instances"].(map[string]any)) != 0 {
			t.Fatalf("instance_charts false: %s", r.Raw)
		}
		// A range wider than the point limit widens the bucket.
		r = e.Call(t, "serving.get_endpoint_metrics_history", obj{"endpoint_url": url, "from_date": 0, "to_date": to,
			"interval": 1, "metric_type": "latency_ms"}).OK(t)
		if iv := r.Num("computed_interval"); iv < to/10000 || len(r.List("total.dates")) > 10000 {
			t.Fatalf("wide range: interval %v, %d points", iv, len(r.List("total.dates")))
		}
		// An unknown URL has empty charts.
		r = e.Call(t, "serving.get_endpoint_metrics_history", obj{"endpoint_url": "nope", "from_date": from, "to_date": to, "interval": 60}).OK(t)
		if len(r.List("total.dates")) != 0 || r.Num("computed_interval") != 60 {
			t.Fatalf("unknown url: %s", r.Raw)
		}
	})
}

// Bad input is refused with a 400 naming the field.
func TestServingBadInput(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		url := "http://serve/ep"
		hist := obj{"endpoint_url": url, "from_date": 10, "to_date": 100, "interval": 1}
		with := func(base obj, k string, v any) obj {
			o := obj{}
			for kk, vv := range base {
				o[kk] = vv
			}
			if v == nil {
				delete(o, k)
			} else {
				o[k] = v
			}
			return o
		}
		cases := []struct {
			name, op string
			body     obj
			code     int
			field    string
		}{
			{"register without container_id", "serving.register_container", with(container("c", "", nil), "container_id", nil), 12, "container_id"},
			{"register without endpoint_name", "serving.register_container", with(container("c", "", nil), "endpoint_name", nil), 12, "endpoint_name"},
			{"register without model_name", "serving.register_container", with(container("c", "", nil), "model_name", nil), 12, "model_name"},
			{"register with timeout 0", "serving.register_container", container("c", "", obj{"timeout": 0}), 12, "timeout"},
			{"register with a bad reference type", "serving.register_container", container("c", "", obj{"reference": []obj{{"type": "x", "value": "v"}}}), 12, "reference"},
			{"register with a reference without value", "serving.register_container", container("c", "", obj{"reference": []obj{{"type": "model"}}}), 12, "reference.0.value"},
			{"register with an object input_size", "serving.register_container", container("c", "", obj{"input_size": obj{}}), 12, "input_size"},
			{"register with an operator tag", "serving.register_container", container("c", "", obj{"tags": []string{"__$not"}}), 16, "tags"},
			{"report without endpoint_url", "serving.container_status_report", container("c", "", nil), 12, "endpoint_url"},
			{"report with a text uptime", "serving.container_status_report", container("c", url, obj{"uptime_sec": "long"}), 12, "uptime_sec"},
			{"report with scalar cpu_usage", "serving.container_status_report", container("c", url, obj{"machine_stats": obj{"cpu_usage": 5}}), 12, "cpu_usage"},
			{"unregister without container_id", "serving.unregister_container", obj{}, 12, "container_id"},
			{"details without endpoint_url", "serving.get_endpoint_details", obj{}, 12, "endpoint_url"},
			{"history without interval", "serving.get_endpoint_metrics_history", with(hist, "interval", nil), 12, "interval"},
			{"history without from_date", "serving.get_endpoint_metrics_history", with(hist, "from_date", nil), 12, "from_date"},
			{"history with interval 0", "serving.get_endpoint_metrics_history", with(hist, "interval", 0), 12, "interval"},
			{"history with a negative to_date", "serving.get_endpoint_metrics_history", with(hist, "to_date", -1), 12, "to_date"},
			{"history with an unknown metric", "serving.get_endpoint_metrics_history", with(hist, "metric_type", "bogus"), 12, "metric_type"},
			{"history with from after to", "serving.get_endpoint_metrics_history", with(hist, "from_date", 200), 16, "from_date"},
		}
		for _, c := range cases {
			r := e.Call(t, c.op, c.body).Err(t, 400, c.code)
			if !strings.Contains(r.Msg(), c.field) {
				t.Errorf("%s: %q does not name %s", c.name, r.Msg(), c.field)
			}
		}
		// Older API versions do not have the service.
		e.Call(t, "v2.30/serving.get_endpoints", nil).Err(t, 404, 0)
	})
}

// Containers are seen only by their own company.
func TestServingCompanyScope(t *testing.T) {
	other := auth.FixedUser{ID: "other-id", Name: "other", Company: "other-company", AccessKey: "OTHERKEY00000000000000000000", SecretKey: "other-secret-00000000000000000000000000"}
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		url := "http://serve/ep"
		e.Call(t, "serving.container_status_report", container("c1", url, obj{"requests_num": 1})).OK(t)
		e.Call(t, "serving.register_container", container("c2", "", nil)).OK(t)
		tok := e.Login(t, other.AccessKey, other.SecretKey)
		if n := len(e.CallAs(t, tok, "serving.get_endpoints", nil).OK(t).List("endpoints")); n != 0 {
			t.Fatalf("another company sees %d endpoints", n)
		}
		if n := len(e.CallAs(t, tok, "serving.get_loading_instances", nil).OK(t).List("instances")); n != 0 {
			t.Fatalf("another company sees %d loading instances", n)
		}
		e.CallAs(t, tok, "serving.get_endpoint_details", obj{"endpoint_url": url}).Err(t, 400, 1052)
		now := float64(time.Now().Unix())
		r := e.CallAs(t, tok, "serving.get_endpoint_metrics_history", obj{"endpoint_url": url, "from_date": now - 100, "to_date": now + 40, "interval": 1}).OK(t)
		if len(r.List("total.dates")) != 0 {
			t.Fatalf("another company sees the charts: %s", r.Raw)
		}
		// Its own container of the same id is its own.
		e.CallAs(t, tok, "serving.unregister_container", obj{"container_id": "c1"}).OK(t)
		e.Call(t, "serving.get_endpoint_details", obj{"endpoint_url": url}).OK(t)
	}, testenv.WithUsers(other))
}
