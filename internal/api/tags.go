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

// ValidateTagLists validates the tags and system_tags of a create request.
func ValidateTagLists(tags, systemTags []string) error {
	if err := ValidateTags("tags", tags); err != nil {
		return err
	}
	return ValidateTags("system_tags", systemTags)
}

// ValidateTagPatch validates the tags and system_tags of an update request
// (nil: not given).
func ValidateTagPatch(tags, systemTags *[]string) error {
	if tags != nil {
		if err := ValidateTags("tags", *tags); err != nil {
			return err
		}
	}
	if systemTags != nil {
		return ValidateTags("system_tags", *systemTags)
	}
	return nil
}
