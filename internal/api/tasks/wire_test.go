package tasks

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

// TestWireMatchesStoredShape: the answer of a task is byte for byte the
// stored document, for a bare task, a normalized one and a full one.
func TestWireMatchesStoredShape(t *testing.T) {
	str := func(s string) *string { return &s }
	now := jsonx.Time{Time: time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.UTC)}
	n := int64(7)
	v := jsonx.Float(1.5)
	full := &store.Task{ID: "t1", Company: "c", User: "u", Name: "n", Type: "training", Status: "stopped",
		StatusReason: str("r"), StatusMessage: str(""), StatusChanged: &now, Comment: str("c"), Report: str("rep"),
		Created: now, Started: &now, Completed: &now, Published: &now, ActiveDuration: &n, Parent: "p", Project: "pr",
		Output: store.TaskOutput{Destination: str("s3://d"), Error: str("e"), Result: str("ok")},
		Execution: store.Execution{Queue: "q", Parameters: map[string]any{"a": 1.0}, ModelDesc: map[string]any{}, ModelLabels: map[string]int64{"x": 1},
			Framework: str("pytorch"), TestSplit: 3, DockerCmd: str("img"),
			Artifacts: []*store.Artifact{{Key: "k", Type: "t", Mode: "output", URI: str("u"), Hash: str("h"), ContentSize: &n, Timestamp: &n,
				TypeData: map[string]any{"a": "b"}, DisplayData: [][]any{{"a", 1.0}}}, nil}},
		Script: store.Script{Binary: "python", Repository: "r", Tag: str("t"), Branch: str("b"), VersionNum: str("v"), EntryPoint: "e",
			WorkingDir: str("."), Requirements: map[string]any{"pip": []any{"x"}}, Diff: str("d")},
		Tags: []string{"a"}, SystemTags: []string{}, LastUpdate: now, LastChange: now, LastChangedBy: "u", LastIteration: 9,
		LastMetrics: map[string]map[string]*store.MetricSummary{"m": {"v": {Metric: "m", Variant: "v", Value: v, MinValue: v,
			MaxValue: v, FirstValue: &v, FirstValueIteration: &n, MeanValue: &v, Count: 2, XAxisLabel: str("x")}, "nil": nil}},
		MetricStats:   map[string]any{"s": map[string]any{}},
		Hyperparams:   map[string]map[string]*store.ParamItem{"Args": {"lr": {Section: "Args", Name: "lr", Value: "0.1", Type: str("float"), Description: str("d")}}},
		Configuration: map[string]*store.ConfigItem{"General": {Name: "General", Value: "{}", Type: str("dictionary")}},
		Runtime:       map[string]any{"gpu": 1.0},
		Models: store.TaskModels{Input: []*store.TaskModelItem{{Name: "in", Model: "m1", Updated: &now}},
			Output: []*store.TaskModelItem{}},
		Container: map[string]*string{"image": str("i"), "arguments": nil}, ReportAssets: []string{"x"},
		LastWorker: "w", LastWorkerReport: &now, EnqueueStatus: "created", CompanyOrigin: "o"}
	normalized := &store.Task{ID: "t2"}
	normalized.Normalize()
	for name, st := range map[string]*store.Task{"bare": {ID: "t0"}, "normalized": normalized, "full": full} {
		want, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(toWire(st))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}
