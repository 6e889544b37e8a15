package query

import (
	"encoding/json"
	"regexp"
	"regexp/syntax"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/limits"
)

// checkPattern refuses a regular expression that is malformed, longer
// than limits.Pattern, or whose compiled program is larger than
// limits.PatternInsts: matching costs the pattern's size times the text's,
// so both are bounded (Go's engine is linear in the text).
func checkPattern(field, pattern string) error {
	if len(pattern) > limits.Pattern {
		return limits.TooLong(field, len(pattern), limits.Pattern)
	}
	if err := limits.CheckNUL(field, pattern); err != nil {
		return err
	}
	if _, err := regexp.Compile(pattern); err != nil {
		return apierr.InvalidRegex(field, err.Error())
	}
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return apierr.InvalidRegex(field, err.Error())
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return apierr.InvalidRegex(field, err.Error())
	}
	if n := len(prog.Inst); n > limits.PatternInsts {
		return apierr.Validation(field, "pattern too complex: %d instructions, the limit is %d", n, limits.PatternInsts)
	}
	return nil
}

// countFilters counts the body keys and filters entries that become
// conditions: each is one more level of the SQL expression.
func countFilters(s *Schema, keys []string, filters map[string]json.RawMessage) int {
	n := len(filters)
	for _, k := range keys {
		if !reserved[k] && s.isFilter(s.canonical(k)) {
			n++
		}
	}
	return n
}

// isFilter reports whether a canonical field becomes a condition when it
// is a body key (the cases of fieldFilters).
func (s *Schema) isFilter(field string) bool {
	return has(s.Patterns, field) || has(s.Lists, field) || hasPrefix(s.ListPrefixes, field) ||
		has(s.Ranges, field) || hasPrefix(s.RangePrefixes, field) || has(s.Dates, field) ||
		has(s.Equality, field) || hasPrefix(s.EqualityPrefixes, field)
}

// checkKey refuses a body key that would become a JSON path neither
// backend can hold (a NUL cuts SQLite's path short; PostgreSQL stores no
// NUL in text).
func checkKey(key string) error {
	if strings.IndexByte(key, 0) >= 0 {
		return apierr.Validation(strings.ReplaceAll(key, "\x00", `\u0000`), "a field name must not contain the NUL character (\\u0000)")
	}
	return nil
}
