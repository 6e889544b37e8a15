package jsonx

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// Time is a UTC time written the way the reference writes dates:
// ISO-8601 with "+00:00", millisecond precision, no fraction when zero.
type Time struct{ time.Time }

// Now returns the current time truncated to milliseconds.
func Now() Time { return Time{time.Now().UTC().Truncate(time.Millisecond)} }

// FromMillis converts epoch milliseconds.
func FromMillis(ms int64) Time { return Time{time.UnixMilli(ms).UTC()} }

// Millis returns epoch milliseconds (0 for the zero time).
func (t Time) Millis() int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// Format renders the wire form.
func (t Time) Format() string {
	u := t.UTC()
	if u.Nanosecond()/1e6 == 0 {
		return u.Format("2006-01-02T15:04:05") + "+00:00"
	}
	return u.Format("2006-01-02T15:04:05.000000") + "+00:00"
}

// MarshalJSON writes the wire form, or null for the zero time.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return []byte(`"` + t.Format() + `"`), nil
}

// UnmarshalJSON accepts ISO-8601 strings (offset optional, UTC assumed) and
// epoch seconds or milliseconds.
func (t *Time) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		*t = Time{}
		return nil
	}
	if len(b) > 0 && b[0] != '"' {
		f, err := strconv.ParseFloat(string(b), 64)
		if err != nil {
			return &json.UnmarshalTypeError{Value: string(b), Type: timeType}
		}
		*t = FromEpoch(f)
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, ok := ParseTime(s)
	if !ok {
		return &json.UnmarshalTypeError{Value: "string " + strconv.Quote(s), Type: timeType}
	}
	*t = v
	return nil
}

// FromEpoch converts epoch seconds, or milliseconds when the value is above
// 10^11 (as clients send either).
func FromEpoch(f float64) Time {
	if f > 1e11 {
		return FromMillis(int64(f))
	}
	return Time{time.UnixMilli(int64(f * 1000)).UTC()}
}

var timeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02T15:04:05.999999999Z0700",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04",
	"2006-01-02",
}

// ParseTime parses an ISO-8601 date-time leniently; no offset means UTC.
func ParseTime(s string) (Time, bool) {
	s = strings.TrimSpace(s)
	for _, l := range timeLayouts {
		if v, err := time.Parse(l, s); err == nil {
			return Time{v.UTC().Truncate(time.Millisecond)}, true
		}
	}
	return Time{}, false
}
