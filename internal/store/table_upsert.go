package store

import (
	"context"
	"errors"
)

// Upsert writes rec, inserting it or replacing the stored one of its id.
func (t *Table[S, P]) Upsert(ctx context.Context, q Querier, rec P) error {
	if _, err := t.GetForUpdate(ctx, q, rec.RecordID()); err != nil {
		if errors.Is(err, ErrNotFound) {
			return t.Insert(ctx, q, rec)
		}
		return err
	}
	return t.Update(ctx, q, rec)
}
