package mlflow

import (
	"strings"
	"testing"
)

func TestParseMetricFilter(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want metricFilter
		err  string
	}{
		{`trace.status = "OK"`, metricFilter{"trace", "status", "", "OK"}, ""},
		{`trace.status = 'ERROR'`, metricFilter{"trace", "status", "", "ERROR"}, ""},
		{"trace.metadata.`mlflow.auth.userId` = \"u\"", metricFilter{"trace", "metadata", "mlflow.auth.userId", "u"}, ""},
		{`trace.metadata."mlflow.trace.user" = 'u'`, metricFilter{"trace", "metadata", "mlflow.trace.user", "u"}, ""},
		{`trace.metadata.mlflow.sourceRun = "r1"`, metricFilter{"trace", "metadata", "mlflow.sourceRun", "r1"}, ""},
		{`trace.tag.env = "prod"`, metricFilter{"trace", "tag", "env", "prod"}, ""},
		{`span.type = "TOOL"`, metricFilter{"span", "type", "", "TOOL"}, ""},
		{`assessment.name = "quality"`, metricFilter{"assessment", "name", "", "quality"}, ""},
		{`trace.status != "OK"`, metricFilter{}, "only '='"},
		{`trace.status`, metricFilter{}, "comparison"},
		{`trace.tag = "x"`, metricFilter{}, "requires a key"},
		{`trace.status.x = "x"`, metricFilter{}, "takes no key"},
		{`trace = "x"`, metricFilter{}, "Invalid identifier"},
		{`spans.name = "x"`, metricFilter{}, "Invalid view type"},
		{`span.model = "x"`, metricFilter{}, "Invalid entity"},
		{`trace.status = 3`, metricFilter{}, "quoted string"},
		{`trace.status = "a" "b"`, metricFilter{}, "one clause"},
		{`"x" = "y"`, metricFilter{}, "expected"},
		{``, metricFilter{}, "expected"},
		{`trace.metadata. = "x"`, metricFilter{}, "names no key"},
	} {
		got, err := parseMetricFilter(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: got %v, %v; want an error saying %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: got %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

func TestPercentile(t *testing.T) {
	vs := []float64{400, 100, 300, 200}
	for p, want := range map[float64]float64{0: 100, 50: 250, 90: 370, 100: 400, 25: 175} {
		if got := percentile(vs, p); got != want {
			t.Errorf("P%v: %v, want %v", p, got, want)
		}
	}
	if got := percentile([]float64{7}, 99); got != 7 {
		t.Errorf("one value: %v", got)
	}
	for p, want := range map[float64]string{50: "P50.0", 99.9: "P99.9", 0: "P0.0"} {
		if got := percentileKey(p); got != want {
			t.Errorf("key of %v: %s, want %s", p, got, want)
		}
	}
}

// FuzzParseMetricFilter: any text parses or is refused with an error;
// nothing panics, and what parses names a known view and entity.
func FuzzParseMetricFilter(f *testing.F) {
	for _, s := range []string{`trace.status = "OK"`, "trace.metadata.`k` = 'v'", `span.type = "TOOL"`, `assessment.name = 'q'`,
		`trace.tag.a.b = "c"`, `trace.metadata."k" = "v" AND`, "`", `trace.`, `= =`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseMetricFilter(s)
		if err != nil {
			return
		}
		needsKey, ok := metricFilterEntities[got.view][got.entity]
		if !ok || needsKey != (got.key != "") {
			t.Fatalf("%q parsed to %+v", s, got)
		}
	})
}
