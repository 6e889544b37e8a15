package eventstore

import "context"

// The events are most of what is deleted; the dialect decides what
// deleting gives back (see store/dialect_space.go).

// UseIncrementalVacuum switches a SQLite database to incremental
// auto-vacuum when it is at most maxBytes, and reports whether that mode
// is in force (always false on PostgreSQL, which needs no such mode).
func (s *Store) UseIncrementalVacuum(ctx context.Context, maxBytes int64) (bool, error) {
	return s.db.D.UseIncrementalVacuum(ctx, s.db.WritePool(), maxBytes)
}

// ReclaimSpace returns up to maxPages free pages of a SQLite database in
// incremental auto-vacuum mode to the file system and reports how many
// free pages were there (nothing to do on PostgreSQL).
func (s *Store) ReclaimSpace(ctx context.Context, maxPages int) (int64, error) {
	return s.db.D.ReclaimFreePages(ctx, s.db.WritePool(), maxPages)
}
