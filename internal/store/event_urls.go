package store

import "context"

// EventFileURLs lists the distinct file URLs (debug images, uploaded
// plots) of the events of tasks or models, for deleting the files when the
// events go.
func (db *DB) EventFileURLs(ctx context.Context, q Querier, ids []string) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return IDs(ctx, q, "SELECT DISTINCT url FROM event_docs WHERE task IN ("+Placeholders(len(ids))+") AND url IS NOT NULL AND url <> ''", Args(ids)...)
}
