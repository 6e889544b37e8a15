package mlflow

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/trove-ml/trove/internal/apierr"
)

func TestParseFilter(t *testing.T) {
	cases := []struct {
		in   string
		want []Clause
		err  string // part of the message of a refused filter
	}{
		{in: "", want: nil},
		{in: "metrics.loss < 0.5", want: []Clause{{Kind: KindMetric, Key: "loss", Op: "<", Num: 0.5, Numeric: true}}},
		{in: "metric.`loss/train` >= -1e-3", want: []Clause{{Kind: KindMetric, Key: "loss/train", Op: ">=", Num: -1e-3, Numeric: true}}},
		{in: "params.lr = '0.1' and tags.team != \"vision\"", want: []Clause{
			{Kind: KindParam, Key: "lr", Op: "=", Str: []string{"0.1"}},
			{Kind: KindTag, Key: "team", Op: "!=", Str: []string{"vision"}}}},
		{in: "tags.`mlflow.parentRunId` = 'abc'", want: []Clause{{Kind: KindTag, Key: "mlflow.parentRunId", Op: "=", Str: []string{"abc"}}}},
		{in: "tags.mlflow.runName LIKE 'run-%'", want: []Clause{{Kind: KindTag, Key: "mlflow.runName", Op: "LIKE", Str: []string{"run-%"}}}},
		{in: "params.opt ILIKE '%ADAM%'", want: []Clause{{Kind: KindParam, Key: "opt", Op: "ILIKE", Str: []string{"%ADAM%"}}}},
		{in: "attributes.status IN ('FINISHED', 'FAILED')", want: []Clause{{Kind: KindAttribute, Key: "status", Op: "IN", Str: []string{"FINISHED", "FAILED"}}}},
		{in: "attribute.run_id NOT IN ('a')", want: []Clause{{Kind: KindAttribute, Key: "run_id", Op: "NOT IN", Str: []string{"a"}}}},
		{in: "run_name = 'x'", want: []Clause{{Kind: KindAttribute, Key: "run_name", Op: "=", Str: []string{"x"}}}},
		{in: "attributes.start_time > 1700000000000", want: []Clause{{Kind: KindAttribute, Key: "start_time", Op: ">", Num: 1700000000000, Numeric: true}}},
		{in: "datasets.name = 'iris'", want: []Clause{{Kind: KindDataset, Key: "name", Op: "=", Str: []string{"iris"}}}},
		{in: "params.`a b` = 'it\\'s'", want: []Clause{{Kind: KindParam, Key: "a b", Op: "=", Str: []string{"it's"}}}},
		{in: "metrics.a == 1", want: []Clause{{Kind: KindMetric, Key: "a", Op: "=", Num: 1, Numeric: true}}},

		{in: "tags.t IS NULL", err: "not on runs"},
		{in: "metrics.loss < 'a'", err: "numeric"},
		{in: "metrics.loss LIKE '1'", err: "comparator"},
		{in: "params.lr > '1'", err: "comparator"},
		{in: "params.lr = 1", err: "quoted string"},
		{in: "foo.bar = 'x'", err: "entity type 'foo'"},
		{in: "attributes.nope = 'x'", err: "attribute key 'nope'"},
		{in: "datasets.size = 'x'", err: "dataset key 'size'"},
		{in: "params.lr = '1' OR params.b = '2'", err: "AND"},
		{in: "params.lr = 'unterminated", err: "unterminated"},
		{in: "params.lr", err: "no comparison"},
		{in: "params.lr =", err: "no value"},
		{in: "params.lr ~ 'x'", err: "unexpected character"},
		{in: "attributes.status IN 'x'", err: "parenthesised"},
		{in: "attributes.status IN ('x'", err: "unclosed"},
		{in: "attributes.status IN ('x' 'y')", err: "expected ','"},
		{in: "metrics.a IN ('1')", err: "comparator"},
		{in: "params. = 'x'", err: "names no key"},
		{in: strings.Repeat("x", MaxFilterLen+1), err: "limit"},
	}
	for _, tc := range cases {
		got, err := ParseFilter(tc.in)
		if tc.err != "" {
			ae := apierr.As(err)
			if ae == nil || apierr.MLflowCode(ae) != "INVALID_PARAMETER_VALUE" || !strings.Contains(ae.Message(), tc.err) {
				t.Errorf("%q: want INVALID_PARAMETER_VALUE saying %q, got %v", tc.in, tc.err, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: got %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

func TestParseOrderBy(t *testing.T) {
	got, err := ParseOrderBy([]string{"metrics.`val loss` DESC", "params.lr", "attributes.start_time asc", "tags.t DESC", "run_name"})
	if err != nil {
		t.Fatal(err)
	}
	want := []OrderKey{{KindMetric, "val loss", true}, {KindParam, "lr", false}, {KindAttribute, "start_time", false},
		{KindTag, "t", true}, {KindAttribute, "run_name", false}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for _, bad := range []string{"metrics.a sideways", "nope", "datasets.name", "metrics.a DESC extra", "'x'"} {
		if _, err := ParseOrderBy([]string{bad}); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if _, err := ParseOrderBy(make([]string, MaxOrderByTerms+1)); err == nil {
		t.Error("too many terms parsed")
	}
}

func TestSampleSteps(t *testing.T) {
	steps := func(n int) []int64 {
		out := make([]int64, n)
		for i := range out {
			out[i] = int64(i)
		}
		return out
	}
	keys := func(m map[int64]bool) []int64 {
		var out []int64
		for k := range m {
			out = append(out, k)
		}
		slices.Sort(out)
		return out
	}
	cases := []struct {
		steps []int64
		n     int
		want  []int64
	}{
		{steps(10), 5, []int64{0, 2, 4, 6, 8, 9}},
		{steps(20), 5, []int64{0, 4, 8, 12, 16, 19}},
		{steps(3), 5, []int64{0, 1, 2}},
		{[]int64{-5, 0, 7, 100}, 2, []int64{-5, 7, 100}},
	}
	for _, tc := range cases {
		if got := keys(SampleSteps(tc.steps, tc.n)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%v by %d: got %v, want %v", tc.steps, tc.n, got, tc.want)
		}
	}
}

// FuzzParseFilter: any input parses or is refused with MLflow's 400,
// never a panic; what parses has a known kind and operator, and a
// numeric value exactly for numeric kinds.
func FuzzParseFilter(f *testing.F) {
	for _, s := range []string{"metrics.loss < 0.5", "params.`a b` = 'x' and tags.t LIKE '%'", "attributes.status IN ('A', \"B\")",
		"run_name != 'x'", "datasets.digest = 'd'", "metrics.x >= -1e9 AND metric.y != 2", "tags.\"quoted key\" ILIKE 'v'", "(", "'", "`"} {
		f.Add(s)
	}
	ops := map[string]bool{"=": true, "!=": true, "<": true, ">": true, "<=": true, ">=": true, "LIKE": true, "ILIKE": true, "IN": true, "NOT IN": true}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		got, err := ParseFilter(s)
		if err != nil {
			ae := apierr.As(err)
			if ae == nil || ae.Code != 400 {
				t.Fatalf("%q: refused with %v", s, err)
			}
			return
		}
		for _, c := range got {
			if !ops[c.Op] {
				t.Fatalf("%q: operator %q", s, c.Op)
			}
			numeric := c.Kind == KindMetric || (c.Kind == KindAttribute && attrNumeric[c.Key])
			if c.Numeric != numeric || (!numeric && len(c.Str) == 0) {
				t.Fatalf("%q: clause %+v", s, c)
			}
		}
	})
}

// FuzzParseOrderBy: any term parses or is refused with a 400.
func FuzzParseOrderBy(f *testing.F) {
	for _, s := range []string{"metrics.a DESC", "params.`x y`", "attributes.start_time ASC", "`", "tags."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := ParseOrderBy([]string{s}); err != nil {
			if ae := apierr.As(err); ae == nil || ae.Code != 400 {
				t.Fatalf("%q: refused with %v", s, err)
			}
		}
	})
}

// TestParseExperimentFilter: name, times and tags, and a tag's absence
// or presence (IS NULL, IS NOT NULL: MLflow 3's UI hides gateway
// experiments with one).
func TestParseExperimentFilter(t *testing.T) {
	cases := []struct {
		in   string
		want []Clause
		err  string
	}{
		{in: "tags.`mlflow.experiment.isGateway` IS NULL", want: []Clause{{Kind: KindTag, Key: "mlflow.experiment.isGateway", Op: OpIsNull}}},
		{in: "tags.team is not null and name LIKE 'a%'", want: []Clause{{Kind: KindTag, Key: "team", Op: OpIsNotNull},
			{Kind: KindAttribute, Key: "name", Op: "LIKE", Str: []string{"a%"}}}},
		{in: "creation_time > 5", want: []Clause{{Kind: KindAttribute, Key: "creation_time", Op: ">", Num: 5, Numeric: true}}},
		{in: "name IS NULL", err: "tags only"},
		{in: "tags.t IS NOT", err: "not a comparison operator"},
		{in: "tags.t IS NULL 'x'", err: "expected AND"},
	}
	for _, tc := range cases {
		got, err := ParseExperimentFilter(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("%q: error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Fatalf("%q: got %+v %v, want %+v", tc.in, got, err, tc.want)
		}
	}
}

// FuzzParseExperimentFilter: any filter parses or is refused with a 400;
// a parsed clause is a tag's (absence, presence or string comparison),
// a name's string comparison or a time's numeric one.
func FuzzParseExperimentFilter(f *testing.F) {
	for _, s := range []string{"tags.`mlflow.experiment.isGateway` IS NULL", "tags.a IS NOT NULL AND name = 'x'",
		"creation_time >= 1 and last_update_time < 2", "name ILIKE '%a%'", "tags.t IS", "IS NULL", "`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		got, err := ParseExperimentFilter(s)
		if err != nil {
			if ae := apierr.As(err); ae == nil || ae.Code != 400 {
				t.Fatalf("%q: refused with %v", s, err)
			}
			return
		}
		for _, c := range got {
			switch {
			case nullOp(c.Op):
				if c.Kind != KindTag || len(c.Str) != 0 {
					t.Fatalf("%q: clause %+v", s, c)
				}
			case c.Numeric:
				if c.Key != "creation_time" && c.Key != "last_update_time" {
					t.Fatalf("%q: clause %+v", s, c)
				}
			default:
				if len(c.Str) != 1 || (c.Kind != KindTag && c.Key != "name") {
					t.Fatalf("%q: clause %+v", s, c)
				}
			}
			if _, err := experimentCond(c); err != nil {
				t.Fatalf("%q: no condition for %+v: %v", s, c, err)
			}
		}
	})
}
