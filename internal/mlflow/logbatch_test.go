package mlflow

import (
	"fmt"
	"strings"
	"testing"
)

// TestBatchSplit: of a batch, the series take each key and step's last
// finite point, and the history's own rows keep the rest (ownRows); each
// key's newest point is MLflow's (batchLatest).
func TestBatchSplit(t *testing.T) {
	m := func(key string, step, ts int64, v string) Metric {
		return Metric{Key: key, Step: step, Timestamp: ts, Value: v}
	}
	linked := m("a", 9, 90, "9")
	linked.DatasetName = "eval"
	for _, tc := range []struct {
		name         string
		in           []Metric
		own, scalars string
		latest       string
	}{
		{"interleaved keys, steps rising: nothing of its own",
			[]Metric{m("a", 0, 1, "1"), m("b", 0, 1, "2"), m("a", 1, 2, "3"), m("b", 1, 2, "4")},
			"", "a0=1 b0=2 a1=3 b1=4", "a1@2=3 b1@2=4"},
		{"a step repeated: the earlier finite points are rows",
			[]Metric{m("a", 0, 1, "1"), m("a", 0, 2, "2"), m("b", 0, 1, "5"), m("a", 0, 3, "3")},
			"a0@1=1 a0@2=2", "a0=1 a0=2 b0=5 a0=3", "a0@3=3 b0@1=5"},
		{"NaN and infinities are rows, the step's finite point stays in the series",
			[]Metric{m("a", 1, 1, "NaN"), m("a", 1, 2, "7"), m("a", 2, 3, "Infinity")},
			"a1@1=NaN a2@3=Infinity", "a1=7", "a2@3=Infinity"},
		{"a step going back without repeating: the series holds it",
			[]Metric{m("a", 5, 1, "1"), m("a", 3, 2, "2")},
			"", "a5=1 a3=2", "a5@1=1"},
		{"a linked point is a row marked as held by the series",
			[]Metric{linked, m("a", 10, 91, "10")},
			"a9@90=9+eval*held", "a9=9 a10=10", "a10@91=10"},
		{"a linked point a later one of its step replaces is a row alone",
			[]Metric{linked, m("a", 9, 92, "8")},
			"a9@90=9+eval", "a9=9 a9=8", "a9@92=8"},
		{"equal step and time: the larger value is the latest, NaN never",
			[]Metric{m("a", 1, 1, "2"), m("a", 1, 1, "NaN"), m("a", 1, 1, "3"), m("a", 1, 1, "1")},
			"a1@1=2 a1@1=NaN a1@1=3", "a1=2 a1=3 a1=1", "a1@1=3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pts := parsePoints(tc.in)
			var own []string
			for _, r := range ownRows(pts) {
				s := fmt.Sprintf("%s%d@%d=%s", r.Key, r.Step, r.Timestamp, r.Value)
				if r.DatasetName != "" {
					s += "+" + r.DatasetName
				}
				if r.InScalars {
					s += "*held"
				}
				own = append(own, s)
			}
			if got := strings.Join(own, " "); got != tc.own {
				t.Errorf("own rows %q, want %q", got, tc.own)
			}
			var sc []string
			for _, e := range scalarPoints("run", pts) {
				sc = append(sc, fmt.Sprintf("%s%d=%s", e.Metric, e.Iter, FormatValue(e.Value)))
			}
			if got := strings.Join(sc, " "); got != tc.scalars {
				t.Errorf("scalar points %q, want %q", got, tc.scalars)
			}
			var latest []string
			for _, r := range batchLatest(pts) {
				latest = append(latest, fmt.Sprintf("%s%d@%d=%s", r.Key, r.Step, r.Timestamp, r.Value))
			}
			if got := strings.Join(latest, " "); got != tc.latest {
				t.Errorf("latest %q, want %q", got, tc.latest)
			}
		})
	}
}
