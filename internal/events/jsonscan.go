package events

import (
	"unicode/utf8"

	"github.com/trove-ml/trove/internal/jsonx"
)

// Event lines are walked with jsonx's validating walker; names and texts
// are decoded here, made storable on both backends.

// decodeString turns a raw JSON string value (with quotes) into Go text,
// valid UTF-8 without NUL characters (PostgreSQL text refuses both).
func decodeString(raw []byte, escaped bool) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if !escaped {
		inner := raw[1 : len(raw)-1]
		if utf8.Valid(inner) {
			return string(inner), true
		}
		return cleanText(string(inner)), true
	}
	s, ok := jsonx.Unquote(raw)
	if !ok {
		return "", false
	}
	return cleanText(s), true
}

// cleanText makes s storable as text on both backends.
func cleanText(s string) string {
	if !utf8.ValidString(s) {
		s = string([]rune(s))
	}
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			out := make([]byte, 0, len(s))
			for j := 0; j < len(s); j++ {
				if s[j] != 0 {
					out = append(out, s[j])
				}
			}
			return string(out)
		}
	}
	return s
}
