package rpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/limits"
)

// fuzzReq has a field of every kind typed requests use: required and
// bounded strings, lists, maps, pointers, dates, numbers, nested objects
// and free-form values.
type fuzzReq struct {
	Task      string             `json:"task" required:"true"`
	Name      string             `json:"name"`
	Tags      []string           `json:"tags"`
	IDs       []string           `json:"ids"`
	Created   *jsonx.Time        `json:"created"`
	Value     jsonx.Float        `json:"value"`
	Count     int                `json:"count"`
	Iteration *int64             `json:"iteration"`
	Force     bool               `json:"force"`
	Runtime   map[string]any     `json:"runtime"`
	Params    map[string]fuzzSub `json:"params"`
	Inner     *fuzzSub           `json:"inner"`
	Raw       json.RawMessage    `json:"raw"`
	Any       any                `json:"any"`
}

type fuzzSub struct {
	Comment string        `json:"comment"`
	Items   []fuzzSub     `json:"items"`
	When    jsonx.Time    `json:"when"`
	Values  []jsonx.Float `json:"values"`
}

// FuzzDecode: a body and a query string go the server's way (sanitized,
// checked to be an object, the query merged in) into a typed request;
// the result is a decoded request or an API error below 500, never a
// panic.
func FuzzDecode(f *testing.F) {
	for _, s := range [][2]string{
		{`{"task": "t1", "name": "x"}`, ""},
		{`{"task": "t1"}`, "name=a&tags[]=b&tags[]=c&inner.comment=x"},
		{`{"task": "t1", "created": 253402300800000}`, ""},
		{`{"task": "t1", "created": -62135596801000}`, ""},
		{`{"task": "t1", "created": 1e308}`, ""},
		{`{"task": "t1", "created": -1e18}`, ""},
		{`{"task": "t1", "count": 123456789012345678901234567890}`, ""},
		{`{"task": "t1", "iteration": 1e30}`, ""},
		{`{"task": "t1", "value": NaN, "inner": {"values": [Infinity, -Infinity]}}`, ""},
		{`{"Task": "t1", "TASK": "t2"}`, ""},
		{`{"task": "t1", "name": "` + strings.Repeat("n", limits.Name+1) + `"}`, ""},
		{`{"task": "t1", "tags": ["` + strings.Repeat("t", limits.Tag+1) + `"]}`, ""},
		{`{"task": "t1", "ids": [` + strings.Repeat(`"x",`, limits.ListItems) + `"x"]}`, ""},
		{`{"task": "t1", "params": {"a": {"items": [{"items": [{"comment": 1}]}]}}}`, ""},
		{`{"task": "t1", "runtime": {"a": {"b": {"c": [1, 2, {"d": null}]}}}}`, ""},
		{`{"task": ["t1"]}`, ""},
		{`{"task": "t1", "inner": {"when": "10000-01-01T00:00:00"}}`, ""},
		{`{"task": "t1"}`, "count=99999999999999999999&force=True&created=1.5"},
		{`{"task": "t1"}`, "inner=x&inner.comment=y"},
		{`{"task": "t1"}`, "a.b.c.d.e.f.g.h.i=1&..=2&[]=3"},
		{`{"task": "t1", "raw": {"x": [1, 2]}, "any": [[[[]]]]}`, ""},
		{`[1, 2]`, ""},
		{`"x"`, ""},
		{`null`, "task=q"},
		{``, ""},
		{`{"task": "t1",}`, ""},
		{`{"task": "\ud800"}`, ""},
		{`{"task": "t1", "any": ` + nested(20, `"\u0000"`) + `}`, ""},
		{`{"task": "t1", "runtime": ` + nested(31, `{"k\u0000": NaN}`) + `}`, ""},
	} {
		f.Add([]byte(s[0]), s[1])
	}
	f.Fuzz(func(t *testing.T, body []byte, rawQuery string) {
		b, err := objectBody(jsonx.Sanitize(body), rawQuery)
		if err != nil {
			checkAPIError(t, body, err)
			return
		}
		if !json.Valid(b) || !isObject(b) {
			t.Fatalf("%q with query %q: request object %q is not an object", body, rawQuery, b)
		}
		var req fuzzReq
		if err := Decode(b, &req); err != nil {
			checkAPIError(t, b, err)
			return
		}
		if req.Task == "" {
			t.Fatalf("%q: decoded without its required field", b)
		}
		if req.Created != nil && !req.Created.IsZero() && !req.Created.InRange() {
			t.Fatalf("%q: date %v accepted outside years 1 to 9999", b, req.Created.Time)
		}
		if len(req.Name) > limits.Name || len(req.IDs) > limits.ListItems {
			t.Fatalf("%q: value over its limit accepted", b)
		}
		// No NUL is left at any depth, but in the NaN/Infinity sentinels
		// of free-form numbers.
		out, _ := json.Marshal(req)
		if n, sentinels := bytes.Count(out, []byte(`\u0000`)), bytes.Count(out, []byte(`\u0000trove:`)); n > sentinels {
			t.Fatalf("%q: a NUL accepted: %.300s", b, out)
		}
	})
}

// FuzzSplitLines: a JSON-lines body splits into valid objects (or, for
// lenient endpoints, non-blank lines), or is refused with an API error.
func FuzzSplitLines(f *testing.F) {
	for _, s := range []string{
		"{\"a\": 1}\n{\"b\": 2}\n", "\n\n  \n", "{\"a\": 1}\r\n[1]\n", "{\"a\": 1}\n\"x\"\n", "{\"a\"\n: 1}",
		"null\n", "true", "12", "{\"a\": NaN}", "{}\n" + strings.Repeat("\n", 100) + "{}",
		"{\"k\": 1}" + strings.Repeat(", \"k\": 1", 10), "\x00\n{}", "{\"a\": \"\u2028\"}\n{}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		body = jsonx.Sanitize(body)
		lines, err := splitLines(body)
		if err != nil {
			checkAPIError(t, body, err)
		}
		for _, ln := range lines {
			if !json.Valid(ln) || ln[0] != '{' {
				t.Fatalf("%q: line %q is not an object", body, ln)
			}
		}
		lenient, err := splitLinesLenient(body)
		if err != nil {
			checkAPIError(t, body, err)
		}
		for _, ln := range lenient {
			if len(bytes.TrimSpace(ln)) == 0 || bytes.ContainsRune(ln, '\n') {
				t.Fatalf("%q: lenient line %q is blank or spans lines", body, ln)
			}
		}
		if err == nil && len(lines) > len(lenient) {
			t.Fatalf("%q: strict split found more lines (%d) than lenient (%d)", body, len(lines), len(lenient))
		}
	})
}

// checkAPIError fails unless err is an API error below 500.
func checkAPIError(t *testing.T, in []byte, err error) {
	t.Helper()
	var ae *apierr.Error
	if !errors.As(err, &ae) {
		t.Fatalf("%q: error is not an API error: %T %v", in, err, err)
	}
	if ae.Code >= 500 {
		t.Fatalf("%q: error %d/%d %s", in, ae.Code, ae.Subcode, ae.Message())
	}
}
