package importer

import (
	"context"
	"encoding/json"
	"fmt"
)

// pageSize is the page size of the source listings.
const pageSize = 500

// listAll pages through a get_all operation (the answer's records under
// key), hidden records included, in the source's own order (the order of
// creation), which the target's insertion order then keeps; a record seen
// twice is kept once.
func listAll(ctx context.Context, c *Client, op, key string, extra map[string]any) ([]json.RawMessage, error) {
	var out []json.RawMessage
	seen := map[string]bool{}
	for page := 0; ; page++ {
		body := map[string]any{"page": page, "page_size": pageSize, "search_hidden": true}
		for k, v := range extra {
			body[k] = v
		}
		var ans map[string]json.RawMessage
		if err := c.Call(ctx, op, body, &ans); err != nil {
			return nil, err
		}
		var recs []json.RawMessage
		if err := json.Unmarshal(ans[key], &recs); err != nil {
			return nil, fmt.Errorf("%s: the answer has no %s list", op, key)
		}
		for _, r := range recs {
			var id struct {
				ID string `json:"id"`
			}
			if json.Unmarshal(r, &id) != nil || id.ID == "" || seen[id.ID] {
				continue
			}
			seen[id.ID] = true
			out = append(out, r)
		}
		if len(recs) < pageSize {
			return out, nil
		}
	}
}
