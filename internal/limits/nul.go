package limits

import (
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/jsonx"
)

// CheckNUL refuses a string holding U+0000, with a 400 naming field:
// PostgreSQL stores no NUL in text or JSON and failed such values with a
// 500 (found by trove-bench hostile), so both backends refuse them alike.
func CheckNUL(field, s string) error {
	if jsonx.IsSentinel(s) {
		// A bare NaN or Infinity where a string belongs.
		return apierr.Validation(field, "expected a string, got a non-finite number")
	}
	if strings.IndexByte(s, 0) >= 0 {
		return apierr.Validation(field, "must not contain the NUL character (\\u0000)")
	}
	return nil
}
