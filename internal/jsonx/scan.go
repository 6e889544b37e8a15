package jsonx

// Byte-level skipping of JSON values, for the exact-name walker; malformed
// input makes them report !ok and the caller leaves the error to
// encoding/json.

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString skips the string starting at b[i] == '"'; escaped reports a
// backslash inside.
func skipString(b []byte, i int) (end int, escaped, ok bool) {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '"':
			return i + 1, escaped, true
		case '\\':
			escaped = true
			i++
		}
	}
	return i, escaped, false
}

// skipValue skips any JSON value starting at b[i] (not whitespace).
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case '"':
		end, _, ok := skipString(b, i)
		return end, ok
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				end, _, ok := skipString(b, i)
				if !ok {
					return end, false
				}
				i = end
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, true
				}
			}
			i++
		}
		return i, false
	}
	// number, true, false, null
	start := i
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\n', '\t', '\r':
			return i, i > start
		}
		i++
	}
	return i, i > start
}
