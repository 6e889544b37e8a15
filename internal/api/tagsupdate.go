package api

import "github.com/trove-ml/trove/internal/apierr"

// TagsUpdate is the body of the update_tags operations (tasks, models):
// tags to add to and to remove from several records.
type TagsUpdate struct {
	IDs        []string `json:"ids"`
	AddTags    []string `json:"add_tags"`
	RemoveTags []string `json:"remove_tags"`
}

// Validate needs ids and at least one of the lists; added tags may not
// look like list operators.
func (r *TagsUpdate) Validate() error {
	if len(r.IDs) == 0 {
		return apierr.Validation("ids", "no ids provided for editing tags")
	}
	if len(r.AddTags) == 0 && len(r.RemoveTags) == 0 {
		return apierr.Validation("add_tags", "either add_tags or remove_tags should be provided")
	}
	return ValidateTags("add_tags", r.AddTags)
}
