package api

import (
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
)

// ValidateTags refuses tags that look like list operators.
func ValidateTags(field string, tags []string) error {
	for _, t := range tags {
		if strings.HasPrefix(t, "__$") {
			return apierr.FieldsValue("tags cannot start with __$: field=%s, tag=%s", field, t)
		}
	}
	return nil
}
