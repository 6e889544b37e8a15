package api

import (
	"encoding/json"

	"github.com/trove-ml/trove/internal/query"
)

// WireItems is the query.DocConverter of an entity whose answers are the
// wire type W: each stored document is decoded as its row S, converted by
// toWire (the entity's one conversion) and answered as a list item.
func WireItems[S, W any](toWire func(*S) *W) query.DocConverter {
	return func(doc []byte) (map[string]any, error) {
		row := new(S)
		if err := json.Unmarshal(doc, row); err != nil {
			return nil, err
		}
		b, err := json.Marshal(toWire(row))
		if err != nil {
			return nil, err
		}
		return query.DecodeItem(b)
	}
}
