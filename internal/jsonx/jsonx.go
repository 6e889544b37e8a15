// Package jsonx bridges Go's strict JSON codec and the ClearML wire format,
// which allows bare NaN, Infinity and -Infinity number tokens.
//
// Incoming bodies have those tokens rewritten into sentinel strings before
// decoding; Float fields decode the sentinels back into float64 values and
// encode non-finite values as sentinels, which Restore turns into bare tokens
// in the final response bytes. Values decoded into untyped fields keep the
// sentinel string and so round-trip unchanged.
package jsonx

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
)

// Sentinel strings (including their quotes) standing for non-finite numbers.
const (
	sentNaN    = `"\u0000trove:NaN"`
	sentPosInf = `"\u0000trove:+Inf"`
	sentNegInf = `"\u0000trove:-Inf"`
)

var (
	rawNaN    = []byte(sentNaN)
	rawPosInf = []byte(sentPosInf)
	rawNegInf = []byte(sentNegInf)
)

// Sanitize rewrites bare NaN/Infinity/-Infinity tokens outside strings into
// sentinel strings. Bodies without such tokens are returned unchanged.
func Sanitize(b []byte) []byte {
	if !bytes.Contains(b, []byte("NaN")) && !bytes.Contains(b, []byte("Infinity")) {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	inStr := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inStr {
			out = append(out, c)
			if c == '\\' && i+1 < len(b) {
				i++
				out = append(out, b[i])
			} else if c == '"' {
				inStr = false
			}
			continue
		}
		switch {
		case c == '"':
			inStr = true
			out = append(out, c)
		case bytes.HasPrefix(b[i:], []byte("NaN")):
			out = append(out, rawNaN...)
			i += 2
		case bytes.HasPrefix(b[i:], []byte("-Infinity")):
			out = append(out, rawNegInf...)
			i += 8
		case bytes.HasPrefix(b[i:], []byte("+Infinity")):
			out = append(out, rawPosInf...)
			i += 8
		case bytes.HasPrefix(b[i:], []byte("Infinity")):
			out = append(out, rawPosInf...)
			i += 7
		default:
			out = append(out, c)
		}
	}
	return out
}

// Restore turns sentinel strings in encoded output back into bare tokens.
func Restore(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u0000trove:`)) {
		return b
	}
	b = bytes.ReplaceAll(b, rawNaN, []byte("NaN"))
	b = bytes.ReplaceAll(b, rawPosInf, []byte("Infinity"))
	return bytes.ReplaceAll(b, rawNegInf, []byte("-Infinity"))
}

// Float is a float64 that accepts and produces non-finite values.
type Float float64

// MarshalJSON encodes finite values as numbers and others as sentinels.
func (f Float) MarshalJSON() ([]byte, error) {
	v := float64(f)
	switch {
	case math.IsNaN(v):
		return rawNaN, nil
	case math.IsInf(v, 1):
		return rawPosInf, nil
	case math.IsInf(v, -1):
		return rawNegInf, nil
	}
	return strconv.AppendFloat(nil, v, 'g', -1, 64), nil
}

// UnmarshalJSON accepts numbers, sentinels and numeric strings.
func (f *Float) UnmarshalJSON(b []byte) error {
	switch {
	case bytes.Equal(b, rawNaN):
		*f = Float(math.NaN())
		return nil
	case bytes.Equal(b, rawPosInf):
		*f = Float(math.Inf(1))
		return nil
	case bytes.Equal(b, rawNegInf):
		*f = Float(math.Inf(-1))
		return nil
	case bytes.Equal(b, []byte("null")):
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return &json.UnmarshalTypeError{Value: "string", Type: floatType}
		}
		*f = Float(v)
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = Float(v)
	return nil
}

// IsSentinel reports whether a decoded string stands for a non-finite number.
func IsSentinel(s string) bool {
	return len(s) > 7 && s[:7] == "\x00trove:"
}

// Marshal encodes v and restores bare non-finite tokens.
func Marshal(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return Restore(b), nil
}
