package transfer

import (
	"context"

	"github.com/trove-ml/trove/internal/store"
)

// SetRebuildIndexesFrom lets tests rebuild indexes on small tables.
func SetRebuildIndexesFrom(n int64) (restore func()) {
	old := rebuildIndexesFrom
	rebuildIndexesFrom = n
	return func() { rebuildIndexesFrom = old }
}

// SecondaryIndexes lists every table's secondary index statements.
func SecondaryIndexes(ctx context.Context, db *store.DB) (map[string]string, error) {
	cd := backendOf(db.D)
	q := store.Rebound(db.ReadPool(), db.D)
	names, err := cd.tableNames(ctx, q)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for n := range names {
		ixs, err := cd.secondaryIndexes(ctx, q, n)
		if err != nil {
			return nil, err
		}
		for _, ix := range ixs {
			out[ix.name] = ix.create
		}
	}
	return out, nil
}
