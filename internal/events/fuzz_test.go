package events

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/limits"
)

// FuzzParse: an event line of any bytes gives an event or a description
// of why it is refused (the only contract ingest relies on), never a panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"type": "training_stats_scalar", "task": "t", "iter": 3, "metric": "m", "variant": "v", "value": 0.5}`,
		`{"type": "log", "task": "t", "msg": "hello", "level": "info"}`,
		`{"type": "plot", "task": "t", "plot_str": "{\"data\": []}"}`,
		`{"type": "training_debug_image", "task": "t", "url": "http://x/y.png", "iter": 1}`,
		`{"type": "training_stats_vector", "task": "t", "values": [1, 2, NaN]}`,
		`{"type": "training_stats_scalar", "task": "t", "value": 1e308, "iter": 99999999999999999999}`,
		`{"type": "training_stats_scalar", "task": "t", "timestamp": -62135596801000}`,
		`{"type": "x", "task": 1}`, `[]`, `{"task": "t", "value": "3"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		e, bad := Parse(b, "w")
		if bad == "" && e == nil {
			t.Fatalf("Parse(%q) gave neither an event nor a description", b)
		}
		if bad == "" && (e.Task == "" || !ValidType(string(e.Type))) {
			t.Fatalf("Parse(%q) accepted an event without task or valid type: %+v", b, e)
		}
	})
}

// FuzzParseShared: a batch's parser remembers the names of earlier lines
// (and hands out events from a slab); a line parsed after others gives
// exactly what it gives parsed alone, escaped names and lookalikes
// included.
func FuzzParseShared(f *testing.F) {
	f.Add([]byte(`{"type": "training_stats_scalar", "task": "t", "iter": 3, "metric": "m", "variant": "v", "value": 0.5}`),
		[]byte(`{"type": "training_stats_scalar", "task": "t", "iter": 4, "metric": "m", "variant": "v\u0041", "value": 1}`))
	f.Add([]byte(`{"type": "log", "task": "t\"", "msg": "a", "worker": "w"}`),
		[]byte(`{"type": "log", "task": "t\\", "msg": "b", "worker": "w2"}`))
	f.Add([]byte(`{"type": "training_stats_scalar", "task": "abc", "metric": "\u0000trove:nan", "value": 1}`),
		[]byte(`{"type": "training_stats_scalar", "task": "abc", "metric": "m", "value": 2}`))
	f.Fuzz(func(t *testing.T, first, second []byte) {
		shared := NewParser("w")
		for _, line := range [][]byte{first, second, first, second} {
			got, gotBad := shared.Parse(line)
			want, wantBad := NewParser("w").Parse(line)
			if gotBad != wantBad || !reflect.DeepEqual(got, want) {
				t.Fatalf("line %q after others: %+v %q; alone: %+v %q", line, got, gotBad, want, wantBad)
			}
		}
	})
}

// TestParseManyUnknownKeys: a line with up to limits.EventKeys members
// (unknown ones kept as extras) parses without rescanning the extras per
// key, and a repeated member keeps its last value; a line with more is
// refused, saying the limit.
func TestParseManyUnknownKeys(t *testing.T) {
	var sb strings.Builder
	sb.WriteString(`{"type": "log", "task": "t", "msg": "m"`)
	n := limits.EventKeys - 4
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, `, "k%d": %d`, i, i)
	}
	sb.WriteString(`, "k7": "last"}`)
	e, bad := Parse([]byte(sb.String()), "w")
	if bad != "" {
		t.Fatalf("refused: %s", bad)
	}
	if len(e.Extra) != n {
		t.Fatalf("extras: %d, want %d", len(e.Extra), n)
	}
	if string(e.Extra[7].Value) != `"last"` {
		t.Fatalf("repeated member k7 = %s, want the last value", e.Extra[7].Value)
	}
	over := strings.Replace(sb.String(), `"k7": "last"`, `"k7": "last", "one": 1, "two": 2`, 1)
	if _, bad := Parse([]byte(over), "w"); !strings.Contains(bad, fmt.Sprint(limits.EventKeys)) {
		t.Fatalf("a line over the member limit: %q", bad)
	}
}
