package queues

import (
	"context"
	"errors"

	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

// EnsureDefaultQueues gives every company that has no queue a queue named
// "default" with the system tag "default", so that a fresh server takes
// Task.enqueue without set-up (as the reference does at start-up). Several
// processes starting at once are safe: the unique name wins once.
func EnsureDefaultQueues(ctx context.Context, db *store.DB, now jsonx.Time) error {
	companies, err := db.CompaniesWithoutQueues(ctx, db.Read())
	if err != nil {
		return err
	}
	for _, company := range companies {
		qu := &store.Queue{ID: ids.New(), Company: company, Name: DefaultName, Created: now, LastUpdate: now,
			Tags: []string{}, SystemTags: []string{DefaultTag}, Metadata: map[string]*store.MetadataItem{}}
		err := db.Tx(ctx, func(q store.Querier) error { return db.Queues().Insert(ctx, q, qu) })
		if err != nil && !errors.Is(err, store.ErrDuplicate) {
			return err
		}
	}
	return nil
}
