package tasks

import (
	"encoding/json"
	"testing"

	"github.com/trove-ml/trove/internal/apierr"
)

// FuzzModelLabels: any input decodes to integer labels or is refused with
// a 400 naming execution.model_labels; it never panics.
func FuzzModelLabels(f *testing.F) {
	for _, s := range []string{`{"a": 1}`, `{"a": 1.0}`, `{"a": 1e2}`, `{"a": 1.5}`, `{"a": "1"}`, `null`, `[]`,
		`{"a": 9223372036854775807}`, `{"a": 9.3e18}`, `{"a": -0.0}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var m ModelLabels
		err := json.Unmarshal(b, &m)
		if err == nil {
			return
		}
		if ae := apierr.As(err); ae != nil && (ae.Code != 400 || ae.Subcode != 12) {
			t.Fatalf("refusal is not a 400/12: %v", ae)
		}
	})
}

func TestModelLabelsDecode(t *testing.T) {
	cases := []struct {
		in   string
		want int64
		ok   bool
	}{
		{`{"a": 1}`, 1, true}, {`{"a": 1.0}`, 1, true}, {`{"a": 2e1}`, 20, true}, {`{"a": -3.00}`, -3, true},
		{`{"a": 1.5}`, 0, false}, {`{"a": 1e30}`, 0, false}, {`{"a": "1"}`, 0, false},
	}
	for _, c := range cases {
		var m ModelLabels
		err := json.Unmarshal([]byte(c.in), &m)
		if c.ok != (err == nil) || (c.ok && m["a"] != c.want) {
			t.Errorf("%s: got %v, %v", c.in, m, err)
		}
		if !c.ok && !apierr.Is(err, 400, 12) {
			t.Errorf("%s: refusal %v", c.in, err)
		}
	}
}
