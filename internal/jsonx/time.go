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

// The dates the wire format can express: years 1 to 9999. A date outside
// them is refused on the way in, so that it can always be read back.
var (
	MinTime = Time{time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)}
	MaxTime = Time{time.Date(9999, 12, 31, 23, 59, 59, 999e6, time.UTC)}
)

// InRange reports whether t can be written and read back in the wire form.
func (t Time) InRange() bool {
	return !t.Before(MinTime.Time) && !t.After(MaxTime.Time)
}

// clamped is t moved into the expressible range.
func (t Time) clamped() Time {
	switch {
	case t.Before(MinTime.Time):
		return MinTime
	case t.After(MaxTime.Time):
		return MaxTime
	}
	return t
}

// Millis returns epoch milliseconds (0 for the zero time).
func (t Time) Millis() int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// Format renders the wire form (a date outside years 1 to 9999 is written
// as the nearest one inside).
func (t Time) Format() string {
	u := t.clamped().UTC()
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
		v, ok := EpochTime(f)
		if !ok {
			return &json.UnmarshalTypeError{Value: "number " + string(b) + " (dates must be within years 1 to 9999)", Type: timeType}
		}
		*t = v
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, ok := ParseTime(s)
	if !ok {
		if len(s) > 64 {
			s = s[:64] + "..."
		}
		return &json.UnmarshalTypeError{Value: "string " + strconv.Quote(s), Type: timeType}
	}
	*t = v
	return nil
}

// FromEpoch converts epoch seconds, or milliseconds when the value is above
// 10^11 (as clients send either). Values outside years 1 to 9999 give the
// nearest date inside; EpochTime refuses them instead.
func FromEpoch(f float64) Time {
	v, ok := EpochTime(f)
	if !ok {
		if f > 0 {
			return MaxTime
		}
		return MinTime
	}
	return v
}

// Epoch bounds in milliseconds of MinTime and MaxTime.
var (
	minMillis = MinTime.UnixMilli()
	maxMillis = MaxTime.UnixMilli()
)

// EpochTime converts epoch seconds or milliseconds (see FromEpoch) and
// reports false for values that are not finite or fall outside years 1 to
// 9999.
func EpochTime(f float64) (Time, bool) {
	ms := f
	if f <= 1e11 {
		ms = f * 1000
	}
	if ms != ms || ms < float64(minMillis) || ms > float64(maxMillis) {
		return Time{}, false
	}
	return FromMillis(int64(ms)), true
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
	if len(s) > 64 {
		return Time{}, false
	}
	for _, l := range timeLayouts {
		if v, err := time.Parse(l, s); err == nil {
			t := Time{v.UTC().Truncate(time.Millisecond)}
			return t, t.InRange()
		}
	}
	return Time{}, false
}
