package events

import (
	"encoding/json"
	"math"
	"strconv"
	"time"
)

// objWriter appends a JSON object member by member, in a fixed order. It
// builds stored documents and rendered events without maps or reflection.
type objWriter struct {
	b []byte
}

func newObj(capacity int) *objWriter {
	w := &objWriter{b: make([]byte, 0, capacity)}
	w.b = append(w.b, '{')
	return w
}

func (w *objWriter) key(k string) {
	if len(w.b) > 1 {
		w.b = append(w.b, ',')
	}
	w.b = appendString(w.b, k)
	w.b = append(w.b, ':')
}

// Str writes a string member.
func (w *objWriter) Str(k, v string) {
	w.key(k)
	w.b = appendString(w.b, v)
}

// StrPtr writes a string member, or null.
func (w *objWriter) StrPtr(k string, v *string) {
	if v == nil {
		w.Null(k)
		return
	}
	w.Str(k, *v)
}

// Int writes an integer member.
func (w *objWriter) Int(k string, v int64) {
	w.key(k)
	w.b = strconv.AppendInt(w.b, v, 10)
}

// Float writes a number member (non-finite values as the NaN tokens the
// envelope restores).
func (w *objWriter) Float(k string, v float64) {
	w.key(k)
	w.b = appendFloat(w.b, v)
}

// Bool writes a boolean member.
func (w *objWriter) Bool(k string, v bool) {
	w.key(k)
	w.b = strconv.AppendBool(w.b, v)
}

// Null writes a null member.
func (w *objWriter) Null(k string) {
	w.key(k)
	w.b = append(w.b, "null"...)
}

// Raw writes a member whose value is already JSON.
func (w *objWriter) Raw(k string, v []byte) {
	w.key(k)
	w.b = append(w.b, v...)
}

// Members splices the members of a stored JSON object ("{...}").
func (w *objWriter) Members(obj string) {
	if len(obj) <= 2 {
		return
	}
	if len(w.b) > 1 {
		w.b = append(w.b, ',')
	}
	w.b = append(w.b, obj[1:len(obj)-1]...)
}

// Done closes the object and returns it.
func (w *objWriter) Done() []byte {
	return append(w.b, '}')
}

// appendString appends s as a JSON string.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == '"' || c == '\\' || c >= 0x7f {
			enc, _ := json.Marshal(s)
			return append(b, enc...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

func appendFloat(b []byte, v float64) []byte {
	switch {
	case math.IsNaN(v):
		return append(b, `"\u0000trove:NaN"`...)
	case math.IsInf(v, 1):
		return append(b, `"\u0000trove:+Inf"`...)
	case math.IsInf(v, -1):
		return append(b, `"\u0000trove:-Inf"`...)
	}
	abs := math.Abs(v)
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		return strconv.AppendFloat(b, v, 'e', -1, 64)
	}
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}

// membersObject encodes members as a JSON object, or nil without any.
func membersObject(ms []Member) *string {
	if len(ms) == 0 {
		return nil
	}
	w := newObj(64)
	for _, m := range ms {
		w.Raw(m.Key, m.Value)
	}
	s := string(w.Done())
	return &s
}

// WriteTime formats an epoch-ms write time as the "@timestamp" of events.
func WriteTime(ms int64) string {
	return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z")
}

// FloatsJSON encodes values as a JSON array (non-finite values as the NaN
// tokens the envelope restores): long arrays cost one pass, not one
// marshaler call per element.
func FloatsJSON(vs []float64) []byte {
	b := make([]byte, 0, 2+len(vs)*12)
	b = append(b, '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendFloat(b, v)
	}
	return append(b, ']')
}

// IntsJSON encodes integers as a JSON array.
func IntsJSON(vs []int64) []byte {
	b := make([]byte, 0, 2+len(vs)*8)
	b = append(b, '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, v, 10)
	}
	return append(b, ']')
}
