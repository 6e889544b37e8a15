package store

// TouchSeriesSQL is the text of TouchSeriesMany's statement of n rows.
func TouchSeriesSQL(d Dialect, n int) string {
	return multiRowSQL(d, touchHead, touchRow, touchTail, n)
}
