package store

import "context"

// The events are most of what is deleted; the dialect decides what
// deleting gives back (see dialect_space.go).

// UseIncrementalVacuum switches a SQLite database to incremental
// auto-vacuum when it is at most maxBytes, and reports whether that mode
// is in force (always false on PostgreSQL, which needs no such mode).
func (s *EventStore) UseIncrementalVacuum(ctx context.Context, maxBytes int64) (bool, error) {
	return s.db.D.UseIncrementalVacuum(ctx, s.db.w, maxBytes)
}

// ReclaimSpace returns up to maxPages free pages of a SQLite database in
// incremental auto-vacuum mode to the file system and reports how many
// free pages were there (nothing to do on PostgreSQL).
func (s *EventStore) ReclaimSpace(ctx context.Context, maxPages int) (int64, error) {
	return s.db.D.ReclaimFreePages(ctx, s.db.w, maxPages)
}

// UsedBytes is the space the database's data takes; benchmarks divide it
// by the points stored.
func (s *EventStore) UsedBytes(ctx context.Context) (int64, error) {
	return s.db.D.UsedBytes(ctx, s.db.Read())
}

// TableBytes is the space of each event table and index, by name.
func (s *EventStore) TableBytes(ctx context.Context) (map[string]int64, error) {
	return s.db.D.TableBytes(ctx, s.db.Read())
}

// ServerPID is the process id of a database server process serving one
// of the read connections, or 0 when the database runs inside Trove
// (SQLite); benchmarks find the server's processes from it to price the
// server's CPU per point.
func (s *EventStore) ServerPID(ctx context.Context) (int, error) {
	d, ok := s.db.D.(serverProcessDialect)
	if !ok {
		return 0, nil
	}
	return d.backendPID(ctx, s.db.Read())
}
