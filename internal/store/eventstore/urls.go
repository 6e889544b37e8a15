package eventstore

import (
	"context"

	"github.com/trove-ml/trove/internal/store"
)

// EventFileURLs lists the distinct file URLs (debug images, uploaded
// plots) of the events of tasks or models, for deleting the files when the
// events go.
func (s *Store) EventFileURLs(ctx context.Context, q store.Querier, ids []string) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return store.IDs(ctx, q, "SELECT DISTINCT url FROM event_docs WHERE task IN ("+store.Placeholders(len(ids))+") AND url IS NOT NULL AND url <> ''", store.Args(ids)...)
}
