package mlflow

import (
	"testing"

	"github.com/trove-ml/trove/internal/store"
)

func TestTraceFilterParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []Clause
		bad  bool
	}{
		{in: "status = 'OK'", want: []Clause{{Kind: KindAttribute, Key: "status", Op: "=", Str: []string{"OK"}}}},
		{in: "trace.state != 'ERROR'", want: []Clause{{Kind: KindAttribute, Key: "status", Op: "!=", Str: []string{"ERROR"}}}},
		{in: "attributes.timestamp > 5", want: []Clause{{Kind: KindAttribute, Key: "timestamp_ms", Op: ">", Num: 5, Numeric: true}}},
		{in: "execution_duration <= 1e3", want: []Clause{{Kind: KindAttribute, Key: "execution_time_ms", Op: "<=", Num: 1000, Numeric: true}}},
		{in: "tags.`a b` LIKE 'x%'", want: []Clause{{Kind: KindTag, Key: "a b", Op: "LIKE", Str: []string{"x%"}}}},
		{in: "request_metadata.k IN ('1', '2')", want: []Clause{{Kind: KindMetadata, Key: "k", Op: "IN", Str: []string{"1", "2"}}}},
		{in: "span.name = 'x'", bad: true},
		{in: "status < 'OK'", bad: true},
		{in: "timestamp_ms LIKE '1'", bad: true},
		{in: "timestamp_ms IN ('1')", bad: true},
		{in: "tags.k = 1", bad: true},
		{in: "status = 'OK' AND", bad: true},
		{in: "'OK' = status", bad: true},
	} {
		got, err := ParseTraceFilter(tc.in)
		if tc.bad {
			if err == nil {
				t.Errorf("%q: parsed as %v", tc.in, got)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if len(got) != len(tc.want) {
			t.Errorf("%q: %v", tc.in, got)
			continue
		}
		for i := range got {
			g, w := got[i], tc.want[i]
			if g.Kind != w.Kind || g.Key != w.Key || g.Op != w.Op || g.Num != w.Num || g.Numeric != w.Numeric || len(g.Str) != len(w.Str) {
				t.Errorf("%q: got %+v, want %+v", tc.in, g, w)
			}
		}
	}
}

func TestTraceMatch(t *testing.T) {
	tr := &Trace{ID: "tr-1", ExperimentID: "e", RequestTime: 100, Duration: 7, State: TraceOK,
		Doc: store.TraceDoc{Tags: map[string]string{"env": "prod", TraceTagName: "chat"},
			Metadata: map[string]string{TraceMetaSourceRun: "r1"}, RunIDs: []string{"r2"}}}
	for filter, want := range map[string]bool{
		"":                      true,
		"run_id = 'r1'":         true,
		"run_id = 'r2'":         true,
		"run_id = 'r3'":         false,
		"run_id != 'r3'":        true,
		"run_id != 'r2'":        false,
		"name ILIKE 'CH%'":      true,
		"tags.missing != 'x'":   true,
		"tags.missing = 'x'":    false,
		"execution_time_ms > 6": true,
		"timestamp_ms = 100 AND status = 'ERROR'": false,
	} {
		cs, err := ParseTraceFilter(filter)
		if err != nil {
			t.Fatalf("%q: %v", filter, err)
		}
		if got := matchTrace(tr, cs); got != want {
			t.Errorf("%q: got %v", filter, got)
		}
	}
}

func TestNPMI(t *testing.T) {
	if v := npmi(6, 6, 7, 10); v < 0.6 || v > 0.8 {
		t.Errorf("npmi(6,6,7,10) = %v", v)
	}
	if v := npmi(0, 1, 7, 10); v == v {
		t.Errorf("no joint count: %v, want NaN", v)
	}
	if v := npmi(10, 10, 10, 10); v != 1 {
		t.Errorf("always together: %v", v)
	}
}

// FuzzTraceFilter: any filter or order term parses or fails with an
// error, never a panic; parsed clauses evaluate.
func FuzzTraceFilter(f *testing.F) {
	for _, s := range []string{"status = 'OK'", "tags.`a` IN ('x', 'y')", "timestamp_ms > 1e3 AND name LIKE '%'",
		"metadata.\"k\" != 'v'", "trace.run_id = 'r'", "attr.", "tags.", "(", "'", "`"} {
		f.Add(s)
	}
	tr := &Trace{ID: "tr", Doc: store.TraceDoc{Tags: map[string]string{"a": "b"}}}
	f.Fuzz(func(t *testing.T, s string) {
		if cs, err := ParseTraceFilter(s); err == nil {
			matchTrace(tr, cs)
		}
		_, _ = parseTraceOrder([]string{s})
	})
}
