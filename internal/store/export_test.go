package store

import "context"

// SetRebuildIndexesFrom lets tests rebuild indexes on small tables.
func SetRebuildIndexesFrom(n int64) (restore func()) {
	old := rebuildIndexesFrom
	rebuildIndexesFrom = n
	return func() { rebuildIndexesFrom = old }
}

// SetMigrationsThrough makes Open apply the migrations up to version only.
func SetMigrationsThrough(version int) (restore func()) {
	old := migrationsThrough
	migrationsThrough = version
	return func() { migrationsThrough = old }
}

// SecondaryIndexes lists every table's secondary index statements.
func (db *DB) SecondaryIndexes(ctx context.Context) (map[string]string, error) {
	cd := db.D.(catalogDialect)
	q := &rawQuerier{q: db.r, d: db.D}
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

// SeriesCacheLen is the number of series the series cache holds (-1
// without a cache).
func (db *DB) SeriesCacheLen() int {
	if db.series == nil {
		return -1
	}
	db.series.mu.Lock()
	defer db.series.mu.Unlock()
	if db.series.off {
		return -1
	}
	return db.series.count
}

// AfterCommit runs fn once q's transaction (of DB.Tx) has committed,
// before the hooks added after it.
func AfterCommit(q Querier, fn func()) { txHooks(q).add(fn) }
