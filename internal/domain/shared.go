package domain

import (
	"errors"
	"sort"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/store"
)

// Update is the result of a single-record update: how many records changed
// and the fields written (dotted paths to their new values).
type Update struct {
	Updated int
	Fields  map[string]any
}

// NotFound is the one not-found idiom: store.ErrNotFound becomes the
// entity's API error, other errors pass through unchanged.
func NotFound(err error, notFound *apierr.Error) error {
	if errors.Is(err, store.ErrNotFound) {
		return notFound
	}
	return err
}

// Visible is the list of companies whose records a caller may read: its
// own and the public ones ("").
func Visible(company string) []string { return []string{company, ""} }

// SortedTags returns tags deduplicated and sorted (never nil).
func SortedTags(tags []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, t := range tags {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	sort.Strings(out)
	return out
}

// HasTag reports whether tags holds tag.
func HasTag(tags []string, tag string) bool {
	for _, t := range tags {
		if t == tag {
			return true
		}
	}
	return false
}

// WithoutTag returns tags less every copy of tag (never nil).
func WithoutTag(tags []string, tag string) []string {
	out := []string{}
	for _, t := range tags {
		if t != tag {
			out = append(out, t)
		}
	}
	return out
}

// FileURLs are the URLs of the files of deleted records: a cascade
// gathers them in its transaction and removes the files after it commits.
type FileURLs struct {
	ModelURLs, EventURLs, ArtifactURLs []string
}

// NewFileURLs returns empty (not nil) lists.
func NewFileURLs() *FileURLs {
	return &FileURLs{ModelURLs: []string{}, EventURLs: []string{}, ArtifactURLs: []string{}}
}
