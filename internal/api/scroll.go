package api

import (
	"bytes"
	"encoding/json"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/query"
)

// ScrollAlways puts a models or queues list request in scroll mode, so that
// every answer carries scroll_id (seeds: "size (integer, minimum 1)" is the
// page size of the scroll, and scroll_id is in every answer). A request
// without scroll_id starts a new scroll; its page size is size, else
// page_size (capped like pages), else the page default. A request naming
// page keeps paging: a scroll cannot start in the middle of the list.
func ScrollAlways(r *query.Request) error {
	if r.Size != nil && *r.Size < 1 {
		return apierr.Validation("size", "must be at least 1, got %d", *r.Size)
	}
	if len(r.ScrollID) > 0 || (r.Page != nil && r.Size == nil) {
		return nil
	}
	if r.Size == nil {
		size := query.MaxPageSize
		if len(r.PageSize) > 0 && !bytes.Equal(r.PageSize, []byte("null")) {
			var n int
			if json.Unmarshal(r.PageSize, &n) != nil || n < 1 {
				return nil // paging reports the bad page_size
			}
			size = min(n, query.MaxPageSize)
		}
		r.Size = &size
	}
	r.ScrollID = json.RawMessage("null")
	return nil
}
