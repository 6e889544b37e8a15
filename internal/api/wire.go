package api

import (
	"encoding/json"

	"github.com/trove-ml/trove/internal/query"
)

// StoredItems is the query.DocConverter of an entity whose answers are its
// stored row S: each stored document is decoded as S and encoded again, so
// that every item has S's shape (members, omissions and number spelling as
// S writes them), whatever the database did to the document.
func StoredItems[S any]() query.DocConverter {
	return func(doc []byte) (map[string]any, error) {
		row := new(S)
		if err := json.Unmarshal(doc, row); err != nil {
			return nil, err
		}
		b, err := json.Marshal(row)
		if err != nil {
			return nil, err
		}
		return query.DecodeItem(b)
	}
}
