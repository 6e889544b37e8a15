package store

import (
	"encoding/json"
	"math"
	"testing"
)

// TestMLflowRunEncoding: appendMLflowRun writes what json.Marshal writes,
// byte for byte, whatever members the run has.
func TestMLflowRunEncoding(t *testing.T) {
	num := func(f float64) *float64 { return &f }
	start, end := int64(1700000000000), int64(-5)
	for name, run := range map[string]*MLflowRun{
		"empty":        {},
		"metrics only": {Metrics: map[string]*LatestMetric{"loss": {Value: "0.5", Num: num(0.5), Step: 3, Timestamp: 9}}},
		"every member": {Tags: map[string]string{"mlflow.runName": "r <1> & \"q\"", "é": "\u2028"}, StartTime: &start, EndTime: &end,
			Metrics: map[string]*LatestMetric{
				"b/acc": {Value: "NaN", Step: -1}, "a": {Value: "1e-07", Num: num(1e-7)}, "huge": {Value: "1e+21", Num: num(1e21)},
				"small": {Value: "0.000001", Num: num(0.000001)}, "neg": {Value: "-123456789.125", Num: num(-123456789.125)},
				"zero": {Value: "-0", Num: num(math.Copysign(0, -1))}, "gone": nil, "<html>&": {Value: "\x00\xff", Num: num(5e-324)},
			},
			Inputs:      []*MLflowDatasetInput{{Name: "d", Digest: "x", SourceType: "local", Source: "/s", Tags: map[string]string{"k": "v"}}},
			ModelInputs: []string{"m-1"}, ModelOutputs: []*MLflowModelOutput{{ModelID: "m-2", Step: 4}},
			ArtifactURI: "mlflow-artifacts:/1/r/artifacts", UserID: "u", ScalarHistory: true},
		"no tags, tail only": {Metrics: map[string]*LatestMetric{"x": {Value: "2", Num: num(2)}}, UserID: "u"},
		"tags, no tail":      {Tags: map[string]string{"t": "v"}, Metrics: map[string]*LatestMetric{"x": {Value: "1.5e+300", Num: num(1.5e300)}}},
	} {
		t.Run(name, func(t *testing.T) {
			want, err := json.Marshal(run)
			if err != nil {
				t.Fatal(err)
			}
			got, err := appendMLflowRun([]byte("prefix"), run)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != "prefix"+string(want) {
				t.Fatalf("\n got  %s\n want prefix%s", got, want)
			}
		})
	}
	if _, err := appendMLflowRun(nil, &MLflowRun{Metrics: map[string]*LatestMetric{"x": {Num: num(math.NaN())}}}); err == nil {
		t.Fatal("a NaN num was written; json.Marshal refuses it")
	}
}

// FuzzAppendJSONFloat64: every finite float64 is written as
// encoding/json writes it.
func FuzzAppendJSONFloat64(f *testing.F) {
	for _, v := range []float64{0, 1, -1, 1e-6, 9.99e-7, 1e21, 9.99e20, 1e-7, 123.456, 5e-324, math.MaxFloat64} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return
		}
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONFloat64(nil, v); string(got) != string(want) {
			t.Fatalf("%v: got %s, want %s", v, got, want)
		}
	})
}
