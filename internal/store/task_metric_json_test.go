package store

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/trove-ml/trove/internal/jsonx"
)

// plainSummary is MetricSummary without its Marshaler: the reflective
// encoding the hand-written one must equal.
type plainSummary MetricSummary

func encodeBoth(t testing.TB, m *MetricSummary, escapeHTML bool) (fast, reflective string) {
	t.Helper()
	enc := func(v any) string {
		var buf bytes.Buffer
		e := json.NewEncoder(&buf)
		e.SetEscapeHTML(escapeHTML)
		if err := e.Encode(v); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	// inside a map, as last_metrics holds them
	return enc(map[string]*MetricSummary{"k": m}), enc(map[string]*plainSummary{"k": (*plainSummary)(m)})
}

func TestMetricSummaryJSONMatchesReflection(t *testing.T) {
	f := func(v float64) *jsonx.Float { x := jsonx.Float(v); return &x }
	i := func(v int64) *int64 { return &v }
	s := func(v string) *string { return &v }
	cases := []*MetricSummary{
		{},
		{Metric: "loss", Variant: "train", Value: 0.25, MinValue: -1e-7, MinValueIteration: 3, MaxValue: 1e21, MaxValueIteration: -1, Count: 7},
		{Metric: "acc", Variant: "val", Value: jsonx.Float(math.NaN()), MinValue: jsonx.Float(math.Inf(-1)), MaxValue: jsonx.Float(math.Inf(1)),
			FirstValue: f(2), FirstValueIteration: i(0), MeanValue: f(1.5), Count: 1, XAxisLabel: s("epoch")},
		{Metric: `a"b\c`, Variant: "<tag> & \u2028 \x00\x1f\b\f\n\r\t", FirstValue: f(math.Copysign(0, -1)), XAxisLabel: s("")},
		{Metric: "métrique ✓", Variant: "bad \xff utf8 \xed\xa0\x80", MeanValue: f(123456789.125)},
		{Metric: "\x7f", Variant: "/slash", FirstValueIteration: i(math.MaxInt64), MinValueIteration: math.MinInt64},
	}
	for n, m := range cases {
		for _, html := range []bool{true, false} {
			fast, want := encodeBoth(t, m, html)
			if fast != want {
				t.Errorf("case %d (escape HTML %v):\n got  %s\n want %s", n, html, fast, want)
			}
		}
	}
	var nilSummary *MetricSummary
	if fast, want := encodeBoth(t, nilSummary, true); fast != want {
		t.Errorf("nil: %s vs %s", fast, want)
	}
}

func FuzzMetricSummaryJSON(f *testing.F) {
	f.Add("loss", "train", 0.5, 1.0, int64(3), true, "x")
	f.Add("<m>", "v\u2028", math.Inf(1), math.NaN(), int64(-1), false, "\xff")
	f.Fuzz(func(t *testing.T, metric, variant string, value, mean float64, iter int64, optional bool, label string) {
		m := &MetricSummary{Metric: metric, Variant: variant, Value: jsonx.Float(value), MinValue: jsonx.Float(mean),
			MinValueIteration: iter, MaxValue: jsonx.Float(-value), MaxValueIteration: -iter, Count: iter}
		if optional {
			fv, mv := jsonx.Float(value), jsonx.Float(mean)
			m.FirstValue, m.FirstValueIteration, m.MeanValue, m.XAxisLabel = &fv, &iter, &mv, &label
		}
		for _, html := range []bool{true, false} {
			if fast, want := encodeBoth(t, m, html); fast != want {
				t.Fatalf("escape HTML %v:\n got  %s\n want %s", html, fast, want)
			}
		}
	})
}
