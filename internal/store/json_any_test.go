package store

import (
	"encoding/json"
	"testing"
)

// FuzzAppendJSONAny: any JSON value, decoded as documents decode their
// free-form members, is written back as json.Marshal writes it.
func FuzzAppendJSONAny(f *testing.F) {
	for _, s := range []string{
		`{"h1": {"metric": "loss", "event_stats_by_type": {"training_stats_scalar": {"last_update": 1700000000123}}}}`,
		`[1, 2.5, -0, 1e-7, 1e21, "a<b>&\u2028", true, false, null, {"z": 1, "a": [ ]}]`, `{}`, `"\ud800"`, `0.1`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var v any
		if json.Unmarshal(raw, &v) != nil {
			return
		}
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendJSONAny(nil, v)
		if err != nil || string(got) != string(want) {
			t.Fatalf("%q: got %s (%v), want %s", raw, got, err, want)
		}
	})
}

// TestAppendJSONAnyTypes: the Go values ingest itself puts in metric_stats
// (int64 times) and anything else json.Marshal takes.
func TestAppendJSONAnyTypes(t *testing.T) {
	for _, v := range []any{
		map[string]any{"a": map[string]any{"last_update": int64(1700000000123)}, "n": int(-3), "nil map": map[string]any(nil), "nil list": []any(nil)},
		struct{ X int }{4}, []string{"a"},
	} {
		want, _ := json.Marshal(v)
		got, err := appendJSONAny(nil, v)
		if err != nil || string(got) != string(want) {
			t.Errorf("%#v: got %s (%v), want %s", v, got, err, want)
		}
	}
}
