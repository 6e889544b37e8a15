package store

// SetMigrationsThrough makes Open apply the migrations up to version only.
func SetMigrationsThrough(version int) (restore func()) {
	old := migrationsThrough
	migrationsThrough = version
	return func() { migrationsThrough = old }
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
