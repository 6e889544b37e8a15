package events

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/jsonx"
)

func TestWalkObject(t *testing.T) {
	cases := []struct {
		in string
		ok bool
	}{
		{`{}`, true},
		{` {"a": 1, "b": [1, 2.5e3, -0.1, {"c": null}], "d": "x\"y\u00e9", "e": true, "f": false} `, true},
		{`{"a": 01}`, false},
		{`{"a": 1,}`, false},
		{`{"a" 1}`, false},
		{`{"a": "\q"}`, false},
		{`{"a": 1} x`, false},
		{`[1]`, false},
		{`{"a": tru}`, false},
		{`{"a": "unterminated}`, false},
		{`{"a": 1.}`, false},
		{`{"a": [1 2]}`, false},
		{`{"a": "ctl` + "\x01" + `"}`, false},
		{strings.Repeat(`{"a":`, 600) + "1" + strings.Repeat("}", 600), false},
	}
	for _, c := range cases {
		err := jsonx.WalkObject([]byte(c.in), func(k []byte, esc bool, v []byte) error { return nil })
		if (err == nil) != c.ok {
			t.Errorf("%q: err %v, want ok=%v", c.in, err, c.ok)
		}
		if len(c.in) < 100 && c.in[0] == '{' && c.ok != json.Valid([]byte(c.in)) {
			t.Errorf("%q: disagrees with encoding/json", c.in)
		}
	}
}

func TestParse(t *testing.T) {
	big := `"` + strings.Repeat("x", MaxPlotLen+1) + `"`
	cases := []struct {
		name, line, bad string
		check           func(t *testing.T, e *Event)
	}{
		{"scalar", `{"type": "training_stats_scalar", "task": "t", "iter": 3, "metric": "m", "variant": "v", "value": 0.5, "timestamp": 1700000000000, "method": "get", "custom": [1]}`, "",
			func(t *testing.T, e *Event) {
				if e.Iter != 3 || e.Value != 0.5 || e.Timestamp != 1700000000000 || !e.HasTimestamp || e.Worker != "w" {
					t.Fatalf("bad scalar %+v", e)
				}
				if len(e.Extra) != 1 || e.Extra[0].Key != "custom" || string(e.Extra[0].Value) != "[1]" {
					t.Fatalf("extras %+v", e.Extra)
				}
			}},
		{"type with spaces", `{"type": "training stats scalar", "task": "t", "value": "2"}`, "", func(t *testing.T, e *Event) {
			if e.Type != Scalar || e.Value != 2 || e.HasIter() || e.Metric != "" {
				t.Fatalf("bad %+v", e)
			}
		}},
		{"numeric strings and floats", `{"type": "log", "task": "t", "iter": "7", "ts": "12.9"}`, "", func(t *testing.T, e *Event) {
			if e.Iter != 7 || e.Timestamp != 12 {
				t.Fatalf("bad %+v", e)
			}
		}},
		{"iso timestamp", `{"type": "log", "task": "t", "timestamp": "2024-01-01T00:00:00Z"}`, "", func(t *testing.T, e *Event) {
			if e.Timestamp != 1704067200000 {
				t.Fatalf("bad %d", e.Timestamp)
			}
		}},
		{"model via model member", `{"type": "plot", "model_event": true, "model": "m1", "plot_str": "{}"}`, "", func(t *testing.T, e *Event) {
			if e.Task != "m1" || !e.ModelEvent || *e.PlotStr != "{}" {
				t.Fatalf("bad %+v", e)
			}
		}},
		{"vector", `{"type": "training_stats_vector", "task": "t", "values": [1, 2]}`, "", func(t *testing.T, e *Event) {
			if string(e.Vector) != "[1, 2]" {
				t.Fatalf("bad %s", e.Vector)
			}
		}},
		{"nul and bad utf-8 cleaned", "{\"type\": \"log\", \"task\": \"t\", \"msg\": \"a\\u0000b\xff\"}", "", func(t *testing.T, e *Event) {
			if *e.Msg != "ab\uFFFD" {
				t.Fatalf("bad %q", *e.Msg)
			}
		}},
		{"no type", `{"task": "t"}`, errNoType, nil},
		{"bad type", `{"type": "x", "task": "t"}`, "Invalid event type x", nil},
		{"no task", `{"type": "log"}`, errNoTask, nil},
		{"model log", `{"type": "log", "task": "t", "model_event": true}`, errModelLog, nil},
		{"nan value", `{"type": "training_stats_scalar", "task": "t", "value": NaN}`, errNonFinite, nil},
		{"infinite value", `{"type": "training_stats_scalar", "task": "t", "value": -Infinity}`, errNonFinite, nil},
		{"overflow value", `{"type": "training_stats_scalar", "task": "t", "value": 1e999}`, errNonFinite, nil},
		{"missing value", `{"type": "training_stats_scalar", "task": "t"}`, errNoValue, nil},
		{"string value", `{"type": "training_stats_scalar", "task": "t", "value": "abc"}`, errNoValue, nil},
		{"iter out of range", `{"type": "log", "task": "t", "iter": 9223372036854775808}`, errIterRange, nil},
		{"iter wrong type", `{"type": "log", "task": "t", "iter": [1]}`, "Invalid field 'iter' (expected an integer)", nil},
		{"metric wrong type", `{"type": "log", "task": "t", "metric": 5}`, "Invalid field 'metric' (expected a string)", nil},
		{"bool wrong type", `{"type": "log", "task": "t", "allow_locked": "yes"}`, "Invalid field 'allow_locked' (expected a boolean)", nil},
		{"huge plot", `{"type": "plot", "task": "t", "plot_str": ` + big + `}`, "Field 'plot_str' is too long", nil},
		{"vector without values", `{"type": "training_stats_vector", "task": "t", "values": 3}`, errVectorValues, nil},
		{"broken", `{"type": "log", "task": `, errMalformed, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, bad := Parse(jsonx.Sanitize([]byte(c.line)), "w")
			if bad != c.bad {
				t.Fatalf("got %q want %q", bad, c.bad)
			}
			if c.check != nil {
				c.check(t, e)
			}
		})
	}
}
