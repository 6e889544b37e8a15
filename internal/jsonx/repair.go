package jsonx

import (
	"encoding/json"
	"regexp"
	"strconv"
)

// storedDate matches what an older Trove could write for a date outside
// years 1 to 9999: a date-time whose year has a sign or more than four
// digits.
var storedDate = regexp.MustCompile(`^([+-]?\d+)-\d\d-\d\dT`)

// RepairDates rewrites, in a stored JSON document, every date string that
// cannot be read back (a year outside 1 to 9999, written by an older
// version) as the nearest date that can. It reports whether anything
// changed; documents that are not JSON objects are returned as they are.
// It is the slow path of reading a document that failed to decode, so
// that such records stay readable, editable and deletable.
func RepairDates(doc []byte) ([]byte, bool) {
	var v any
	if json.Unmarshal(doc, &v) != nil {
		return doc, false
	}
	changed := false
	v = repairValue(v, &changed)
	if !changed {
		return doc, false
	}
	out, err := json.Marshal(v)
	if err != nil {
		return doc, false
	}
	return out, true
}

func repairValue(v any, changed *bool) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = repairValue(e, changed)
		}
	case []any:
		for i, e := range x {
			x[i] = repairValue(e, changed)
		}
	case string:
		m := storedDate.FindStringSubmatch(x)
		if m == nil {
			return x
		}
		y, err := strconv.ParseInt(m[1], 10, 64)
		inRange := err == nil && y >= 1 && y <= 9999 && len(m[1]) == 4
		if inRange {
			return x // a readable year: not a date this repairs
		}
		*changed = true
		if err != nil || y >= 1 {
			return MaxTime.Format()
		}
		return MinTime.Format()
	}
	return v
}
