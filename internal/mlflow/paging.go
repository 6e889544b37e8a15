package mlflow

import (
	"encoding/base64"
	"encoding/json"

	"github.com/trove-ml/trove/internal/apierr"
)

// One mechanism for the pages of every MLflow search: the page size
// (max_results with its default and bound), the page token, and cutting
// a page out of a list.

// sizeWording is how a search words a max_results over its bound: MLflow's
// tracking server (experiments, runs) and its registry (registered models,
// versions, logged models) say it differently, and clients match on it.
type sizeWording int

const (
	trackingWording sizeWording = iota
	registryWording
)

// pageSize is a search's page size: def when max_results is not given (0
// or less), an error naming max_results and limit when it is over limit.
func pageSize(n, def, limit int, w sizeWording) (int, error) {
	if n <= 0 {
		return def, nil
	}
	if n <= limit {
		return n, nil
	}
	if w == trackingWording {
		return 0, apierr.MLflowInvalidParameter("Invalid value %d for parameter 'max_results' supplied. It must be at most %d", n, limit)
	}
	return 0, apierr.MLflowInvalidParameter("Invalid value for request parameter max_results. It must be at most %d, but got value %d", limit, n)
}

// cutPage keeps the first n of list, which was read from offset with one
// more than a page (n+1) so that the next page's token is given only when
// there is one.
func cutPage[T any](list []T, offset, n int) ([]T, string) {
	if len(list) > n {
		return list[:n], PageToken(offset + n)
	}
	return list, ""
}

// page cuts a sorted list at a page token and a size.
func page[T any](list []T, tok string, n int) ([]T, string, error) {
	offset, err := ParsePageToken(tok)
	if err != nil {
		return nil, "", err
	}
	if offset >= len(list) {
		return nil, "", nil
	}
	out, next := cutPage(list[offset:], offset, n)
	return out, next, nil
}

// Page is a search's position: an offset carried in an opaque token.
type Page struct {
	Offset int `json:"offset"`
}

// ParsePageToken decodes a page token ("" = the first page).
func ParsePageToken(tok string) (int, error) {
	if tok == "" {
		return 0, nil
	}
	raw, err := base64.StdEncoding.DecodeString(tok)
	var p Page
	if err != nil || json.Unmarshal(raw, &p) != nil || p.Offset < 0 {
		return 0, apierr.MLflowInvalidParameter("Invalid page token, could not base64-decode")
	}
	return p.Offset, nil
}

// PageToken encodes the position after offset.
func PageToken(offset int) string {
	b, _ := json.Marshal(Page{Offset: offset})
	return base64.StdEncoding.EncodeToString(b)
}
