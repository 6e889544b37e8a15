package store

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/trove-ml/trove/internal/jsonx"
)

// checkTaskDoc holds AppendDoc to json.Marshal: the same members with the
// same values, and last_metrics byte for byte as encoding/json writes it.
func checkTaskDoc(t *testing.T, task *Task) {
	t.Helper()
	fast, err := task.AppendDoc(nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(task)
	if err != nil {
		t.Fatal(err)
	}
	var got, exp map[string]json.RawMessage
	if err := json.Unmarshal(fast, &got); err != nil {
		t.Fatalf("AppendDoc wrote invalid JSON: %v\n%s", err, fast)
	}
	if err := json.Unmarshal(want, &exp); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(exp) {
		t.Fatalf("members: got %d, want %d", len(got), len(exp))
	}
	for k, v := range exp {
		if !bytes.Equal(got[k], v) {
			t.Errorf("member %s:\n got  %s\n want %s", k, got[k], v)
		}
	}
	var back Task
	if err := json.Unmarshal(fast, &back); err != nil {
		t.Fatal(err)
	}
	var fromMarshal Task
	if err := json.Unmarshal(want, &fromMarshal); err != nil {
		t.Fatal(err)
	}
	// compared re-encoded: NaN values are never DeepEqual
	b1, _ := json.Marshal(&back)
	b2, _ := json.Marshal(&fromMarshal)
	if !bytes.Equal(b1, b2) {
		t.Errorf("decoded documents differ:\n %s\n %s", b1, b2)
	}
}

func TestTaskDocMatchesMarshal(t *testing.T) {
	f := func(v float64) *jsonx.Float { x := jsonx.Float(v); return &x }
	label := "epoch <1>"
	full := &Task{ID: "t1", Company: "c", Name: `a "quoted" <name> & more`, Status: "in_progress", Tags: []string{"x"},
		Created: jsonx.Time{}, LastIteration: 42,
		LastMetrics: map[string]map[string]*MetricSummary{
			"loss": {
				"train": {Metric: "loss", Variant: "train", Value: 0.5, MinValue: 0.1, MinValueIteration: 3, MaxValue: 2, Count: 9, FirstValue: f(2)},
				"val":   {Metric: "loss", Variant: "val", Value: jsonx.Float(math.NaN()), MaxValue: jsonx.Float(math.Inf(1)), XAxisLabel: &label},
			},
			"<html> & \u2028": {"v\x00\xff": {Metric: "<html> & \u2028", Variant: "v\x00\xff", MeanValue: f(math.Copysign(0, -1))}},
			"acc":             {"gone": nil},
			"empty":           {},
			"nil":             nil,
			"métrique":        {"b": {Metric: "métrique", Variant: "b", Value: 1e21}, "a": {Metric: "métrique", Variant: "a", Value: 1e-7}},
		},
		Runtime: map[string]any{"last_metrics": nil},
	}
	cases := map[string]*Task{
		"full":               full,
		"nil last_metrics":   {ID: "t2"},
		"empty last_metrics": {ID: "t3", LastMetrics: map[string]map[string]*MetricSummary{}},
	}
	for name, task := range cases {
		t.Run(name, func(t *testing.T) { checkTaskDoc(t, task) })
	}
	if doc, _ := full.AppendDoc(nil); !bytes.HasPrefix(doc, []byte(`{"last_metrics":{`)) {
		t.Errorf("document starts %.40q", doc)
	}
}

func FuzzTaskDoc(f *testing.F) {
	f.Add("loss", "train", "name", 0.5, int64(3))
	f.Add("<m>&", "v\u2028\xff", "\"", math.Inf(-1), int64(-1))
	f.Fuzz(func(t *testing.T, metric, variant, name string, value float64, iter int64) {
		task := &Task{ID: name, Name: name, LastIteration: iter, LastMetrics: map[string]map[string]*MetricSummary{
			metric: {variant: {Metric: metric, Variant: variant, Value: jsonx.Float(value), MinValueIteration: iter, Count: iter}},
			name:   {metric: nil},
		}}
		checkTaskDoc(t, task)
	})
}

// BenchmarkTaskDoc encodes a reporting task (5 metrics x 10 variants, as
// trove-bench fleet sends) the reflective way and with AppendDoc.
func BenchmarkTaskDoc(b *testing.B) {
	task := &Task{ID: "bench", Name: "training run", Status: "in_progress", LastIteration: 1000,
		LastMetrics: map[string]map[string]*MetricSummary{}}
	for m := range 5 {
		metric := "metric_" + string(rune('a'+m))
		task.LastMetrics[metric] = map[string]*MetricSummary{}
		for v := range 10 {
			variant := "variant_" + string(rune('a'+v))
			first := jsonx.Float(1)
			task.LastMetrics[metric][variant] = &MetricSummary{Metric: metric, Variant: variant, Value: 0.123456789,
				MinValue: 0.01, MinValueIteration: 900, MaxValue: 1.5, MaxValueIteration: 2, FirstValue: &first, Count: 1000}
		}
	}
	b.Run("json.Marshal", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(task); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("AppendDoc", func(b *testing.B) {
		for b.Loop() {
			if _, err := task.AppendDoc(nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
