package store

import (
	"context"
	"fmt"
)

// Deleting events frees their space. On SQLite the pages of deleted rows
// go to the file's free list and are reused by later writes; with
// incremental auto-vacuum (set on new databases by UseIncrementalVacuum)
// ReclaimSpace also gives free pages back to the file system. On
// PostgreSQL autovacuum marks deleted rows reusable; nothing to do here.

// UseIncrementalVacuum switches a SQLite database to incremental
// auto-vacuum when it is still small (the switch rewrites the file once
// with VACUUM); a larger database keeps its mode. It reports the mode now
// in force.
func (s *EventStore) UseIncrementalVacuum(ctx context.Context, maxBytes int64) (bool, error) {
	if s.db.IsPostgres() {
		return false, nil
	}
	w := s.db.w
	var mode, pages, size int64
	if err := w.QueryRowContext(ctx, "PRAGMA auto_vacuum").Scan(&mode); err != nil {
		return false, err
	}
	if mode == 2 {
		return true, nil
	}
	if err := w.QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages); err != nil {
		return false, err
	}
	if err := w.QueryRowContext(ctx, "PRAGMA page_size").Scan(&size); err != nil {
		return false, err
	}
	if pages*size > maxBytes {
		return false, nil
	}
	if _, err := w.ExecContext(ctx, "PRAGMA auto_vacuum = INCREMENTAL"); err != nil {
		return false, err
	}
	if _, err := w.ExecContext(ctx, "VACUUM"); err != nil {
		return false, fmt.Errorf("vacuum: %w", err)
	}
	return true, nil
}

// ReclaimSpace returns up to maxPages free pages of a SQLite database in
// incremental auto-vacuum mode to the file system and reports how many
// free pages were there.
func (s *EventStore) ReclaimSpace(ctx context.Context, maxPages int) (int64, error) {
	if s.db.IsPostgres() {
		return 0, nil
	}
	var free int64
	if err := s.db.w.QueryRowContext(ctx, "PRAGMA freelist_count").Scan(&free); err != nil {
		return 0, err
	}
	if free == 0 {
		return 0, nil
	}
	_, err := s.db.w.ExecContext(ctx, fmt.Sprintf("PRAGMA incremental_vacuum(%d)", maxPages))
	return free, err
}
