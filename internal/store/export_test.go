package store

// SetMigrationsThrough makes Open apply the migrations up to version only.
func SetMigrationsThrough(version int) (restore func()) {
	old := migrationsThrough
	migrationsThrough = version
	return func() { migrationsThrough = old }
}
