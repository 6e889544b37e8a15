package importer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"

	"github.com/trove-ml/trove/internal/store"
)

// putRecord writes rec unless the store holds the same document: it
// inserts a new record and rewrites a changed one. It says whether it
// wrote.
func putRecord[S any, P interface {
	*S
	store.Record
}](ctx context.Context, q store.Querier, t *store.Table[S, P], rec P) (bool, error) {
	old, err := t.Get(ctx, q, rec.RecordID())
	if errors.Is(err, store.ErrNotFound) {
		return true, t.Insert(ctx, q, rec)
	}
	if err != nil {
		return false, err
	}
	if same(old, rec) {
		return false, nil
	}
	return true, t.Update(ctx, q, rec)
}

// same compares two records by their stored documents.
func same(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}
