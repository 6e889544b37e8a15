package mlflow

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestInputsHashIgnoresKeyOrder(t *testing.T) {
	a, err := inputsHash(json.RawMessage(`{"q": "2+2", "lang": {"x": 1, "y": [1, 2]}}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := inputsHash(json.RawMessage(`{"lang":{"y":[1,2],"x":1},"q":"2+2"}`))
	c, _ := inputsHash(json.RawMessage(`{"lang":{"y":[2,1],"x":1},"q":"2+2"}`))
	if a != b || a == c {
		t.Fatalf("hashes %s %s %s", a, b, c)
	}
}

func TestMergeObjects(t *testing.T) {
	for _, tc := range []struct{ base, next, want string }{
		{`{"a": 1}`, `{"b": 2}`, `{"a":1,"b":2}`},
		{`{"a": 1}`, `{"a": 3}`, `{"a":3}`},
		{``, `{"a": 1}`, `{"a": 1}`},
		{`{"a": 1}`, `null`, `{"a": 1}`},
	} {
		got, err := mergeObjects(json.RawMessage(tc.base), json.RawMessage(tc.next))
		if err != nil || string(got) != tc.want {
			t.Errorf("merge %s %s = %s, %v; want %s", tc.base, tc.next, got, err, tc.want)
		}
	}
}

func TestSpacedJSON(t *testing.T) {
	if got := spacedJSON([]byte(`[{"a":"x, y: z","b":["\"q\",",1]}]`)); got != `[{"a": "x, y: z", "b": ["\"q\",", 1]}]` {
		t.Fatalf("spaced: %s", got)
	}
}

func TestParseJSONTags(t *testing.T) {
	tags, err := ParseJSONTags(`{"a": "x", "n": 3, "o": {"k": true}}`)
	if err != nil || tags["a"] != "x" || tags["n"] != "3" || tags["o"] != `{"k": true}` {
		t.Fatalf("tags %v, %v", tags, err)
	}
	for _, bad := range []string{``, `null`, `[]`, `"a"`, `{"a": }`} {
		if _, err := ParseJSONTags(bad); err == nil {
			t.Errorf("%q was taken", bad)
		}
	}
}

// FuzzParseRecords: any text is refused with an error or read into
// records whose inputs are JSON objects, never a panic; the inputs hash
// of what was read is always computable.
func FuzzParseRecords(f *testing.F) {
	for _, s := range []string{`[]`, `[{"inputs": {"q": 1}}]`, `[{"inputs": null, "expectations": {"a": [1]}}]`,
		`[{"inputs": [1]}]`, `{"inputs": {}}`, `[{"inputs": {"q": "x"}, "tags": {"mlflow.user": "u"}, "source": {"source_type": "HUMAN"}}]`,
		`[1, "a", null]`, `[{"source_id": 5}]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		recs, err := ParseRecords(text)
		if err != nil {
			return
		}
		for _, r := range recs {
			if !isObject(r.Inputs) {
				t.Fatalf("inputs %s of %q", r.Inputs, text)
			}
			if _, err := inputsHash(r.Inputs); err != nil {
				t.Fatalf("hash of %s: %v", r.Inputs, err)
			}
			_ = recordSchema("", []RecordIn{r})
		}
	})
}

// FuzzParseJSONTags: no panic; a value taken is the text of a JSON value.
func FuzzParseJSONTags(f *testing.F) {
	for _, s := range []string{`{}`, `{"a": "b"}`, `{"n": 1.5e3, "l": [1]}`, `[]`, `{"a": "\u0000"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		tags, err := ParseJSONTags(text)
		if err != nil {
			return
		}
		if tags == nil || !strings.HasPrefix(strings.TrimSpace(text), "{") {
			t.Fatalf("%q read as %v", text, tags)
		}
	})
}
