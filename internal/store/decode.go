package store

import (
	"encoding/json"

	"github.com/trove-ml/trove/internal/jsonx"
)

// decodeDoc decodes a stored document into rec. A document that an older
// version stored with a date it cannot read back is repaired in memory
// (the date moved to the nearest expressible one) so that the record can
// still be read, edited and deleted; the repaired form is written back by
// the next update.
func decodeDoc(doc []byte, rec any) error {
	err := json.Unmarshal(doc, rec)
	if err == nil {
		return nil
	}
	if fixed, ok := jsonx.RepairDates(doc); ok {
		if json.Unmarshal(fixed, rec) == nil {
			return nil
		}
	}
	return err
}
