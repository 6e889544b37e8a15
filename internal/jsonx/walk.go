package jsonx

import (
	"encoding/json"
	"errors"
	"unicode/utf8"
)

// A small validating walker over JSON objects and arrays. The hot write
// paths (event lines, MLflow's log-batch) read hundreds of thousands of
// values a second: walking the members once and decoding only the known
// ones is several times cheaper than encoding/json's reflection, and what
// it accepts encoding/json accepts too (FuzzWalkObject).

// ErrSyntax is what the walkers answer for input that is not JSON.
var ErrSyntax = errors.New("malformed JSON")

// maxDepth bounds nesting so a hostile line cannot exhaust the stack.
const maxDepth = 512

// WalkObject calls fn for each member of the object in b with the raw key
// (between the quotes, escapes not decoded; escaped tells whether it has
// any) and the raw value. Anything but one well-formed object is an error.
func WalkObject(b []byte, fn func(key []byte, escaped bool, val []byte) error) error {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return ErrSyntax
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return trailing(b, i+1)
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return ErrSyntax
		}
		end, esc, err := scanString(b, i)
		if err != nil {
			return err
		}
		key := b[i+1 : end-1]
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return ErrSyntax
		}
		i = skipSpace(b, i+1)
		vend, err := scanValue(b, i, 1)
		if err != nil {
			return err
		}
		if err := fn(key, esc, b[i:vend]); err != nil {
			return err
		}
		var done bool
		if i, done, err = lastOrNext(b, vend, '}'); err != nil || done {
			return err
		}
	}
}

func trailing(b []byte, i int) error {
	if skipSpace(b, i) != len(b) {
		return ErrSyntax
	}
	return nil
}

// scanString returns the index after the closing quote of the string
// starting at b[i] and whether it holds escapes.
func scanString(b []byte, i int) (int, bool, error) {
	esc := false
	for i++; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '"':
			return i + 1, esc, nil
		case c == '\\':
			esc = true
			i++
			if i >= len(b) {
				return 0, false, ErrSyntax
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(b) || !isHex(b[i+1]) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) {
					return 0, false, ErrSyntax
				}
				i += 4
			default:
				return 0, false, ErrSyntax
			}
		case c < 0x20:
			return 0, false, ErrSyntax
		}
	}
	return 0, false, ErrSyntax
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// scanValue returns the index after the value starting at b[i].
func scanValue(b []byte, i, depth int) (int, error) {
	if i >= len(b) {
		return 0, ErrSyntax
	}
	if depth > maxDepth {
		return 0, ErrSyntax
	}
	switch c := b[i]; {
	case c == '"':
		end, _, err := scanString(b, i)
		return end, err
	case c == '{':
		i = skipSpace(b, i+1)
		if i < len(b) && b[i] == '}' {
			return i + 1, nil
		}
		for {
			if i >= len(b) || b[i] != '"' {
				return 0, ErrSyntax
			}
			end, _, err := scanString(b, i)
			if err != nil {
				return 0, err
			}
			i = skipSpace(b, end)
			if i >= len(b) || b[i] != ':' {
				return 0, ErrSyntax
			}
			if i, err = scanValue(b, skipSpace(b, i+1), depth+1); err != nil {
				return 0, err
			}
			var done bool
			if i, done, err = nextItem(b, i, '}'); err != nil || done {
				return i, err
			}
		}
	case c == '[':
		i = skipSpace(b, i+1)
		if i < len(b) && b[i] == ']' {
			return i + 1, nil
		}
		for {
			var err error
			if i, err = scanValue(b, i, depth+1); err != nil {
				return 0, err
			}
			var done bool
			if i, done, err = nextItem(b, i, ']'); err != nil || done {
				return i, err
			}
		}
	case c == 't':
		return literal(b, i, "true")
	case c == 'f':
		return literal(b, i, "false")
	case c == 'n':
		return literal(b, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return scanNumber(b, i)
	}
	return 0, ErrSyntax
}

// nextItem reads what follows a member or element ending before b[i]:
// the closing byte (done, the index after it) or a comma (the index of
// the next item).
func nextItem(b []byte, i int, closing byte) (int, bool, error) {
	i = skipSpace(b, i)
	switch {
	case i >= len(b):
		return 0, false, ErrSyntax
	case b[i] == closing:
		return i + 1, true, nil
	case b[i] != ',':
		return 0, false, ErrSyntax
	}
	return skipSpace(b, i+1), false, nil
}

// lastOrNext is nextItem for the walkers' own object or array: after its
// closing byte only spaces may follow.
func lastOrNext(b []byte, i int, closing byte) (int, bool, error) {
	i, done, err := nextItem(b, i, closing)
	if err == nil && done {
		err = trailing(b, i)
	}
	return i, done, err
}

func literal(b []byte, i int, lit string) (int, error) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return 0, ErrSyntax
	}
	return i + len(lit), nil
}

// scanNumber checks the JSON number grammar.
func scanNumber(b []byte, i int) (int, error) {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return 0, ErrSyntax
	}
	if i < len(b) && b[i] == '.' {
		i++
		start := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == start {
			return 0, ErrSyntax
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		start := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == start {
			return 0, ErrSyntax
		}
	}
	return i, nil
}

// WalkArray calls fn for each element of the array in b (raw, spaces
// trimmed). Anything but one well-formed array is an error.
func WalkArray(b []byte, fn func(i int, val []byte) error) error {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return ErrSyntax
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return trailing(b, i+1)
	}
	for n := 0; ; n++ {
		end, err := scanValue(b, i, 1)
		if err != nil {
			return err
		}
		if err := fn(n, b[i:end]); err != nil {
			return err
		}
		var done bool
		if i, done, err = lastOrNext(b, end, ']'); err != nil || done {
			return err
		}
	}
}

// Unquote decodes a raw JSON string value (quotes included) as
// encoding/json does; ok is false for anything else.
func Unquote(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	if inner := raw[1 : len(raw)-1]; !HasEscape(inner) && utf8.Valid(inner) {
		return string(inner), true
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// MemberName decodes a member name as WalkObject handed it over.
func MemberName(key []byte, escaped bool) (string, bool) {
	if !escaped {
		return string(key), true
	}
	q := make([]byte, 0, len(key)+2)
	return Unquote(append(append(append(q, '"'), key...), '"'))
}

// HasEscape reports whether a raw JSON string value holds escapes.
func HasEscape(raw []byte) bool {
	for _, c := range raw {
		if c == '\\' {
			return true
		}
	}
	return false
}
