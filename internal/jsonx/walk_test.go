package jsonx

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzWalkObject: the scanner never panics, and whatever it accepts as an
// object encoding/json accepts too (once NaN/Infinity, which clients send
// and the scanner allows, are out of the way).
func FuzzWalkObject(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"a": 1}`, `{"a": [1, {"b": null}], "c": "x\"y"}`, `{"a": 01}`, `{"a": 1,}`,
		`{"a": "\ud800"}`, `{"a": NaN}`, `{"a": -Infinity}`, strings.Repeat(`{"a":`, 40) + "1" + strings.Repeat("}", 40),
		`{"a": 1e400}`, `{"` + strings.Repeat("k", 300) + `": true}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		keys := 0
		err := WalkObject(b, func(k []byte, esc bool, v []byte) error { keys++; return nil })
		if err != nil {
			return
		}
		s := string(b)
		if strings.Contains(s, "NaN") || strings.Contains(s, "Infinity") {
			return
		}
		if !json.Valid(b) {
			t.Fatalf("WalkObject accepted %q, encoding/json does not", b)
		}
	})
}

// FuzzWalkArray: the same for arrays, and each element it hands over is
// one whole value encoding/json accepts.
func FuzzWalkArray(f *testing.F) {
	for _, s := range []string{`[]`, `[1, "a", {"b": [2]}]`, `[1,]`, `[01]`, `[{"key": "k", "value": 1.5, "step": 0}]`, `["\u00e9"]`, ` [ null ] `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var elems []string
		err := WalkArray(b, func(i int, v []byte) error {
			if i != len(elems) {
				t.Fatalf("element %d handed over as %d", len(elems), i)
			}
			elems = append(elems, string(v))
			return nil
		})
		if err != nil {
			return
		}
		var all []json.RawMessage
		if err := json.Unmarshal(b, &all); err != nil {
			t.Fatalf("WalkArray accepted %q, encoding/json does not: %v", b, err)
		}
		if len(all) != len(elems) {
			t.Fatalf("%q: %d elements, encoding/json %d", b, len(elems), len(all))
		}
		for i, e := range elems {
			if !json.Valid([]byte(e)) || strings.TrimSpace(e) != e {
				t.Fatalf("%q: element %d is %q", b, i, e)
			}
		}
	})
}

// TestUnquote: Unquote decodes as encoding/json does, escapes and invalid
// UTF-8 included, and refuses what is not a string.
func TestUnquote(t *testing.T) {
	for _, raw := range []string{`""`, `"plain"`, `"a\"b"`, `"\u00e9t\u00e9"`, "\"caf\xc3\xa9\"", "\"bad \xff byte\"", `"tab\there"`} {
		got, ok := Unquote([]byte(raw))
		var want string
		if err := json.Unmarshal([]byte(raw), &want); err != nil || !ok || got != want {
			t.Errorf("Unquote(%q) = %q, %v; encoding/json %q, %v", raw, got, ok, want, err)
		}
	}
	for _, raw := range []string{``, `"`, `1`, `null`, `"unterminated`, `'x'`} {
		if s, ok := Unquote([]byte(raw)); ok {
			t.Errorf("Unquote(%q) = %q, want refused", raw, s)
		}
	}
}
