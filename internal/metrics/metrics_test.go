package metrics

import (
	"context"
	"errors"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/trove-ml/trove/internal/store"
)

func TestObserveCall(t *testing.T) {
	db, err := store.Open(context.Background(), "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := New(db, time.Now)
	type answer struct {
		Added  int `json:"added"`
		Errors int `json:"errors"`
	}
	m.ObserveCall("events.add_batch", 200, time.Millisecond, &answer{Added: 5, Errors: 1})
	m.ObserveCall("events.add", 200, time.Millisecond, answer{Added: 1})
	m.ObserveCall("events.add_batch", 400, time.Millisecond, nil)
	m.ObserveCall("tasks.get_all", 200, time.Millisecond, answer{Added: 7})
	m.ObserveCall("", 404, time.Millisecond, nil)
	m.ObserveTx(time.Millisecond, nil)
	m.ObserveTx(time.Millisecond, errors.New("conflict"))

	fams, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	series := map[string][]*dto.Metric{}
	for _, f := range fams {
		series[f.GetName()] = f.GetMetric()
	}
	if ms := series["trove_events_ingested_total"]; len(ms) != 1 || ms[0].GetCounter().GetValue() != 6 {
		t.Errorf("events ingested = %v, want 6 (refusals and other operations do not count)", ms)
	}
	requests := map[string]float64{}
	for _, m := range series["trove_api_requests_total"] {
		requests[m.GetLabel()[0].GetValue()+" "+m.GetLabel()[1].GetValue()] = m.GetCounter().GetValue()
	}
	want := map[string]float64{"events.add_batch 200": 1, "events.add_batch 400": 1, "events.add 200": 1, "tasks.get_all 200": 1, "unknown 404": 1}
	if len(requests) != len(want) {
		t.Errorf("requests = %v, want %v", requests, want)
	}
	for k, v := range want {
		if requests[k] != v {
			t.Errorf("requests[%s] = %v, want %v", k, requests[k], v)
		}
	}
	if n := len(series["trove_db_transaction_duration_seconds"]); n != 2 {
		t.Errorf("transaction series = %d, want ok and error", n)
	}
	if len(series["trove_workers"]) != 2 || len(series["trove_db_pool_open_connections"]) == 0 {
		t.Errorf("store collector: workers %v, pools %v", series["trove_workers"], series["trove_db_pool_open_connections"])
	}
}
