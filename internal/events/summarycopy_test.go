package events

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

// A summary applied to a summaryCopy gives the same task as applying it
// to a freshly decoded one, and leaves the original exactly as it was
// (the kept task is shared by the next batches).
func TestSummaryCopyLeavesTheOriginal(t *testing.T) {
	started := jsonx.Time{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	first, mean, fi := jsonx.Float(1), jsonx.Float(2), int64(1)
	orig := &store.Task{ID: "t", Company: "c", Status: "in_progress", Started: &started, LastIteration: 4,
		LastMetrics: map[string]map[string]*store.MetricSummary{
			Hash("m"): {Hash("v"): {Metric: "m", Variant: "v", Value: 3, MinValue: 1, MaxValue: 3, Count: 2,
				FirstValue: &first, FirstValueIteration: &fi, MeanValue: &mean}},
		},
		MetricStats: map[string]any{Hash("m"): map[string]any{"metric": "m",
			"event_stats_by_type": map[string]any{"training_stats_scalar": map[string]any{"last_update": float64(5)}}}},
		Hyperparams: map[string]map[string]*store.ParamItem{"Args": {"lr": {Section: "Args", Name: "lr", Value: "0.1"}}},
	}
	orig.Normalize()
	before, err := json.Marshal(orig)
	if err != nil {
		t.Fatal(err)
	}
	s := newSummary()
	p := NewParser(UnknownWorker)
	for _, line := range []string{
		`{"type":"training_stats_scalar","task":"t","iter":9,"metric":"m","variant":"v","value":-7,"timestamp":100}`,
		`{"type":"training_stats_scalar","task":"t","iter":9,"metric":"m","variant":"w","value":8,"timestamp":100}`,
		`{"type":"training_stats_scalar","task":"t","iter":9,"metric":"n","variant":"v","value":1,"timestamp":100}`,
	} {
		s.add(mustParse(t, p, []byte(line)))
	}
	now := jsonx.Time{Time: started.Add(time.Hour)}

	cp := summaryCopy(orig)
	s.ApplyTask(cp, now, "u2")
	after, _ := json.Marshal(orig)
	if string(after) != string(before) {
		t.Fatalf("the original changed:\n%s\n%s", before, after)
	}

	var fresh store.Task
	if err := json.Unmarshal(before, &fresh); err != nil {
		t.Fatal(err)
	}
	s.ApplyTask(&fresh, now, "u2")
	want, _ := json.Marshal(&fresh)
	got, _ := json.Marshal(cp)
	if string(got) != string(want) {
		t.Fatalf("copy and decoded task differ:\n%s\n%s", got, want)
	}
	if cp.LastMetrics[Hash("m")][Hash("v")].MinValue != -7 || cp.LastIteration != 9 || cp.LastChangedBy != "u2" {
		t.Fatalf("summary not applied to the copy: %s", got)
	}
}
