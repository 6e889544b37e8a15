package pipelines

import (
	"encoding/json"
	"testing"
)

// FuzzArgValue checks the reader of run arguments: strings stay as they
// are, numbers and booleans become their text, anything else is refused.
func FuzzArgValue(f *testing.F) {
	for _, s := range []string{`"x"`, `1.5`, `true`, `null`, `{}`, `[1]`, `"\u00e9"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		var v argValue
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			return
		}
		var s string
		if json.Unmarshal([]byte(raw), &s) == nil && string(v) != s {
			t.Fatalf("string %q read as %q", s, v)
		}
	})
}
