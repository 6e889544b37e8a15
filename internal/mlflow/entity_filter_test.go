package mlflow

import (
	"strings"
	"testing"
)

// TestEntityFilter: the registry's and logged models' filters parse
// into clauses over their own attributes and tags, and refuse the rest
// naming the key.
func TestEntityFilter(t *testing.T) {
	cases := []struct {
		filter string
		attrs  entityAttrs
		n      int
		err    string
	}{
		{"", modelAttrs, 0, ""},
		{"name = 'a'", modelAttrs, 1, ""},
		{"name LIKE 'a%' AND tags.`x y` = 'b'", modelAttrs, 2, ""},
		{"run_id IN ('a', 'b') AND version_number >= 2", versionAttrs, 2, ""},
		{"version_number = '3'", versionAttrs, 1, ""},
		{"tags.`x y` IS NULL", modelAttrs, 1, ""},
		{"tags.x is not null AND name = 'a'", modelAttrs, 2, ""},
		{"name IS NULL", modelAttrs, 0, "tags only"},
		{"tags.x IS", modelAttrs, 0, "not a comparison operator"},
		{"bogus = 'a'", modelAttrs, 0, "'bogus'"},
		{"name > 'a'", modelAttrs, 0, "Invalid comparator"},
		{"version_number LIKE '1'", versionAttrs, 0, "Invalid comparator"},
		{"version_number IN ('1')", versionAttrs, 0, "Invalid comparator"},
		{"name = a", modelAttrs, 0, "quoted string"},
		{"name = 'a' OR name = 'b'", modelAttrs, 0, "expected AND"},
		{"name", modelAttrs, 0, "no comparison"},
		{strings.Repeat("x", MaxFilterLen+1), modelAttrs, 0, "limit"},
	}
	for _, tc := range cases {
		got, err := parseEntityFilter(tc.filter, tc.attrs)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("%q: error %v, want %q", tc.filter, err, tc.err)
			}
			continue
		}
		if err != nil || len(got) != tc.n {
			t.Fatalf("%q: %v %v", tc.filter, got, err)
		}
	}
}

// TestMatchString: LIKE and ILIKE wildcards, IN lists, and a missing tag
// matching only != and NOT IN.
func TestMatchString(t *testing.T) {
	cases := []struct {
		op      string
		vals    []string
		have    string
		present bool
		want    bool
	}{
		{"=", []string{"a"}, "a", true, true},
		{"!=", []string{"a"}, "a", true, false},
		{"LIKE", []string{"a%c"}, "abbc", true, true},
		{"LIKE", []string{"a_c"}, "abbc", true, false},
		{"LIKE", []string{"A%"}, "abc", true, false},
		{"ILIKE", []string{"A%"}, "abc", true, true},
		{"LIKE", []string{"a.c"}, "abc", true, false},
		{"IN", []string{"x", "y"}, "y", true, true},
		{"NOT IN", []string{"x", "y"}, "y", true, false},
		{"=", []string{""}, "", false, false},
		{"LIKE", []string{"%"}, "", false, false},
		{"!=", []string{"true"}, "", false, true},
		{"NOT IN", []string{"true"}, "", false, true},
		{OpIsNull, nil, "", false, true},
		{OpIsNull, nil, "", true, false},
		{OpIsNotNull, nil, "x", true, true},
		{OpIsNotNull, nil, "", false, false},
	}
	for _, tc := range cases {
		if got := matchString(Clause{Op: tc.op, Str: tc.vals}, tc.have, tc.present); got != tc.want {
			t.Fatalf("%s %v on %q: %v", tc.op, tc.vals, tc.have, got)
		}
	}
}

// TestCheckSource: remote sources pass; local paths, file: URIs and
// climbing paths (also percent-encoded) are refused.
func TestCheckSource(t *testing.T) {
	cases := []struct {
		src string
		ok  bool
	}{
		{"mlflow-artifacts:/1/r/artifacts/model", true},
		{"mlflow-artifacts://host:9000/models/artifact/..../", true},
		{"models:/m-abc", true},
		{"runs:/abc/model", true},
		{"s3://bucket/key", true},
		{"artifacts:/0/r/artifacts", true},
		{"/etc/passwd", false},
		{"relative/path", false},
		{"file:///path/to/model", false},
		{"C:/models", false},
		{"mlflow-artifacts://host:9000/models/../../../", false},
		{"mlflow-artifacts://host:9000/models/..%2f..%2fartifacts", false},
		{"mlflow-artifacts://host:9000/models/%252e%252e/x", false},
		{"mlflow-artifacts://host:9000/models/artifact%00", false},
		{"dbfs:/r/artifacts/a%3f/../../", false},
	}
	for _, tc := range cases {
		if err := CheckSource(tc.src); (err == nil) != tc.ok {
			t.Fatalf("%q: %v, want ok=%v", tc.src, err, tc.ok)
		}
	}
}

// FuzzEntityFilter: any filter either parses into clauses whose values
// the matcher takes, or is refused with an error; never a panic.
func FuzzEntityFilter(f *testing.F) {
	for _, s := range []string{"name = 'a'", "tags.x LIKE '%_%' AND version_number > 3", "run_id IN ('a','b')", "name ILIKE \"x\"", "`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		clauses, err := parseEntityFilter(s, versionAttrs)
		if err != nil {
			return
		}
		for _, c := range clauses {
			if c.Numeric {
				matchNumber(c, 1)
			} else {
				if len(c.Str) == 0 {
					t.Fatalf("%q: a string clause without values: %+v", s, c)
				}
				matchString(c, "value", true)
			}
		}
	})
}

// FuzzCheckSource: any source is accepted or refused, never a panic, and
// an accepted one holds no ".." segment once decoded.
func FuzzCheckSource(f *testing.F) {
	for _, s := range []string{"s3://b/k", "mlflow-artifacts:/a/../b", "%2e%2e", "models:/m-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if CheckSource(s) == nil && strings.Contains("/"+s+"/", "/../") {
			t.Fatalf("%q accepted with a '..' segment", s)
		}
	})
}
