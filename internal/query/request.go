package query

import (
	"bytes"
	"encoding/json"

	"github.com/trove-ml/trove/internal/apierr"
)

// StringList accepts a string or a list of strings (null = empty).
type StringList []string

// UnmarshalJSON accepts "a" or ["a", "b"].
func (l *StringList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		*l = nil
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*l = StringList{s}
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		return err
	}
	*l = list
	return nil
}

// Pattern is multi_field_pattern_data: fields plus a regex or a date-time
// constraint.
type Pattern struct {
	Fields   []string        `json:"fields"`
	Pattern  *string         `json:"pattern"`
	Datetime json.RawMessage `json:"datetime"`
}

// Request holds the list-query fields shared by every get_all style call.
// Entity-specific fields (tags, status, hyperparams.*, ...) are read from
// the raw body by Build.
type Request struct {
	ID            StringList                 `json:"id"`
	Name          *string                    `json:"name"`
	OnlyFields    []string                   `json:"only_fields"`
	Projection    []string                   `json:"projection"`
	OrderBy       StringList                 `json:"order_by"`
	Page          *int                       `json:"page"`
	PageSize      json.RawMessage            `json:"page_size"`
	SearchText    string                     `json:"search_text"`
	All           *Pattern                   `json:"all"`
	Any           *Pattern                   `json:"any"`
	AllU          *Pattern                   `json:"_all_"`
	AnyU          *Pattern                   `json:"_any_"`
	And           *Pattern                   `json:"_and_"`
	Or            *Pattern                   `json:"_or_"`
	ScrollID      json.RawMessage            `json:"scroll_id"`
	Size          *int                       `json:"size"`
	RefreshScroll bool                       `json:"refresh_scroll"`
	SearchHidden  bool                       `json:"search_hidden"`
	AllowPublic   *bool                      `json:"allow_public"`
	Filters       map[string]json.RawMessage `json:"filters"`
}

// MaxPageSize caps page_size and the default page (as the reference).
const MaxPageSize = 500

// paging validates page/page_size.
func (r *Request) paging() (limit, offset int, err error) {
	size := MaxPageSize
	if len(r.PageSize) > 0 {
		if bytes.Equal(r.PageSize, []byte("null")) {
			if r.Page != nil {
				return 0, 0, apierr.MissingField("page_size")
			}
		} else {
			var n int
			if err := json.Unmarshal(r.PageSize, &n); err != nil {
				return 0, 0, apierr.Validation("page_size", "value is wrong, expected type integer")
			}
			if n < 1 {
				return 0, 0, apierr.Validation("page_size", "must be at least 1, got %d", n)
			}
			size = min(n, MaxPageSize)
		}
	}
	page := 0
	if r.Page != nil {
		if *r.Page < 0 {
			return 0, 0, apierr.Validation("page", "must be at least 0, got %d", *r.Page)
		}
		page = *r.Page
	}
	return size, page * size, nil
}

// scrolling reports whether the request is in scroll mode and its id.
func (r *Request) scrolling() (bool, string, error) {
	if len(r.ScrollID) == 0 {
		return false, "", nil
	}
	id := ""
	if !bytes.Equal(r.ScrollID, []byte("null")) {
		if err := json.Unmarshal(r.ScrollID, &id); err != nil {
			return false, "", apierr.Validation("scroll_id", "value is wrong, expected type string")
		}
	}
	if r.Size == nil || *r.Size < 1 {
		return false, "", apierr.Validation("size", "an integer of at least 1 is required with scroll_id")
	}
	return true, id, nil
}
