package tasks

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"

	"github.com/trove-ml/trove/internal/apierr"
)

// ModelLabels is execution.model_labels: label names to integer ids.
// Python clients send ids computed as floats (1.0); an integral float is
// the integer it names, as the reference stores it. A fractional or
// out-of-range value is refused naming the field.
type ModelLabels map[string]int64

// UnmarshalJSON reads the labels as above.
func (m *ModelLabels) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		*m = nil
		return nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return apierr.Validation("execution.model_labels", "value is wrong, expected an object of integers")
	}
	out := make(ModelLabels, len(raw))
	for k, n := range raw {
		v, ok := integral(n)
		if !ok {
			return apierr.Validation("execution.model_labels", "label %q: expected an integer, got %s", k, n)
		}
		out[k] = v
	}
	*m = out
	return nil
}

// integral reads a JSON number that names an integer (1, 1.0, 1e2); a
// string, even of digits, is not one.
func integral(raw json.RawMessage) (int64, bool) {
	var n json.Number
	if len(raw) == 0 || raw[0] == '"' || json.Unmarshal(raw, &n) != nil {
		return 0, false
	}
	if v, err := strconv.ParseInt(n.String(), 10, 64); err == nil {
		return v, true
	}
	f, err := strconv.ParseFloat(n.String(), 64)
	if err != nil || f != math.Trunc(f) || f < math.MinInt64 || f >= math.MaxInt64 {
		return 0, false
	}
	return int64(f), true
}
