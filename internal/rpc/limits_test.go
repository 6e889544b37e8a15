package rpc

import (
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/limits"
)

// nested wraps inner in depth levels of {"k": ...} and [...] alternately.
func nested(depth int, inner string) string {
	var b strings.Builder
	for i := 0; i < depth; i++ {
		if i%2 == 0 {
			b.WriteString(`{"k": `)
		} else {
			b.WriteString(`[`)
		}
	}
	b.WriteString(inner)
	for i := depth - 1; i >= 0; i-- {
		if i%2 == 0 {
			b.WriteString(`}`)
		} else {
			b.WriteString(`]`)
		}
	}
	return b.String()
}

// The checks of free-form values reach every depth the decoder accepts:
// a NUL, a NaN where the walk meets a string, or an over-long list deep
// inside is a 400 naming the field's path, however deep.
func TestLimitsAtAnyDepth(t *testing.T) {
	longList := "[" + strings.Repeat("1,", limits.ListItems) + "1]"
	for _, c := range []struct {
		name, body string
		depth      int // levels of {"k": ...} in the field's path
	}{
		{"NUL at depth 9", `{"task": "t", "runtime": ` + nested(9, `"a\u0000b"`) + `}`, 5},
		{"NUL at depth 40", `{"task": "t", "any": ` + nested(40, `"\u0000"`) + `}`, 20},
		{"NUL in a key at depth 30", `{"task": "t", "runtime": ` + nested(30, `{"a\u0000": 1}`) + `}`, 16},
		{"NUL at depth 5000", `{"task": "t", "any": ` + nested(5000, `"x\u0000"`) + `}`, 2500},
		{"long list at depth 21", `{"task": "t", "runtime": ` + nested(21, longList) + `}`, 11},
	} {
		var req fuzzReq
		err := Decode([]byte(c.body), &req)
		ae := apierr.As(err)
		if ae == nil || ae.Code != 400 {
			t.Errorf("%s: got %v, want a 400", c.name, err)
			continue
		}
		if got := strings.Count(ae.Message(), ".*"); got < c.depth {
			t.Errorf("%s: the message names a path %d levels deep, want %d: %.200s", c.name, got, c.depth, ae.Message())
		}
	}
	var req fuzzReq
	if err := Decode([]byte(`{"task": "t", "any": `+nested(5000, `"fine"`)+`}`), &req); err != nil {
		t.Errorf("a deep value without a fault: %v", err)
	}
}
