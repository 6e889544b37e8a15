package serving

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/jsonx"
)

// FuzzScalarString: input_size takes a string or a number (kept as its
// text); anything else is a 400 naming the field, never a panic.
func FuzzScalarString(f *testing.F) {
	for _, s := range []string{`"9000000"`, `9000000`, `1.5e3`, `null`, `{}`, `[1]`, `true`, `"\u00e9"`, `-0`, `1e999`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		var req struct {
			InputSize *scalarString `json:"input_size"`
		}
		err := jsonx.Unmarshal([]byte(`{"input_size":`+raw+`}`), &req)
		if err == nil {
			// JSON allows whitespace before the value: ` ""` is a string.
			text := strings.TrimLeft(raw, " \t\r\n")
			if req.InputSize != nil && json.Valid([]byte(raw)) && text[0] != '"' && string(*req.InputSize) == "" {
				t.Fatalf("number %q read as empty", raw)
			}
			return
		}
		if ae := apierr.As(err); ae != nil && ae.Code != 400 {
			t.Fatalf("not a 400: %v", err)
		}
	})
}
