package eventstore

import "github.com/trove-ml/trove/internal/store"

// TouchSeriesSQL is the text of TouchSeriesMany's statement of n rows.
func TouchSeriesSQL(d store.Dialect, n int) string {
	return store.MultiRowSQL(d, touchHead, touchRow, touchTail, n)
}

// SeriesCacheLen is the number of series db's series cache holds (-1
// without a cache, or with one switched off).
func SeriesCacheLen(db *store.DB) int {
	c := Of(db).series
	if c == nil {
		return -1
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.off {
		return -1
	}
	return c.count
}
