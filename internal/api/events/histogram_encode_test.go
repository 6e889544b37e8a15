package events

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	ev "github.com/trove-ml/trove/internal/events"
)

// sampleHistogram is an answer with names to escape, both axis kinds,
// labels present and absent, and curves with and without extremes.
func sampleHistogram(metric, variant, label string) histogramResponse {
	t := &ev.Target{}
	curves := []ev.Curve{
		{Metric: metric, Variant: variant, X: []int64{-1024, 0, 1 << 40}, Y: []float64{0.5, -3, 1e-9},
			Min: []float64{0.25, -7, 0}, Max: []float64{0.75, 1e300, math.NaN()}},
		{Metric: metric, Variant: variant + "b", X: []int64{7}, Y: []float64{math.NaN()}},
		{Metric: "loss", Variant: "train", X: []int64{}, Y: []float64{}},
		{Metric: "loss", Variant: "<eval>&", X: []int64{1, 2}, Y: []float64{math.Inf(1), math.Inf(-1)}},
	}
	h := histogramResponse{}
	for i, cv := range curves {
		if h[cv.Metric] == nil {
			h[cv.Metric] = map[string]*curveOut{}
		}
		key := ev.KeyIter
		if i == 1 {
			key = ev.KeyISOTime
		}
		c := toCurve(cv, cv.Variant, key, t)
		if i%2 == 0 {
			c.XAxisLabel = &label
		}
		h[cv.Metric][cv.Variant] = c
	}
	h["empty"] = map[string]*curveOut{}
	return h
}

// encode must give what json.Marshal gave for the same answer, byte for
// byte (the envelope splices it in unchecked).
func TestHistogramEncodeIsJSONMarshal(t *testing.T) {
	for _, c := range []struct{ metric, variant, label string }{
		{"acc", "val", "epoch"},
		{`quo"te\back`, "tab\tnew\nline", "</script>"},
		{"ünïcode ✓", "line\u2028sep\u2029", "&amp;"},
		{"bad \xff utf8", "nul\x00", "\x7f"},
		{"", "", ""},
	} {
		h := sampleHistogram(c.metric, c.variant, c.label)
		want, err := json.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		got := h.encode()
		if !bytes.Equal(got, want) {
			t.Fatalf("%q:\n got %s\nwant %s", c.metric, got, want)
		}
		if !json.Valid(got) {
			t.Fatalf("invalid JSON %s", got)
		}
	}
	if got := (histogramResponse{}).encode(); string(got) != "{}" {
		t.Fatalf("empty answer %s", got)
	}
}

func FuzzHistogramEncode(f *testing.F) {
	f.Add("acc", "val", "epoch")
	f.Add("<a>", "\xff\xfe", "\u2028")
	f.Fuzz(func(t *testing.T, metric, variant, label string) {
		h := sampleHistogram(metric, variant, label)
		want, err := json.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		if got := h.encode(); !bytes.Equal(got, want) {
			t.Fatalf("%q %q %q:\n got %s\nwant %s", metric, variant, label, got, want)
		}
	})
}
