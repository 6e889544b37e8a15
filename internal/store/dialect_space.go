package store

import (
	"context"
	"fmt"
)

// Deleting rows frees their space. On SQLite the pages of deleted rows go
// to the file's free list and are reused by later writes; with
// incremental auto-vacuum the free pages can also be given back to the
// file system. On PostgreSQL autovacuum marks deleted rows reusable, so
// its methods do nothing.

// UseIncrementalVacuum switches the database to incremental auto-vacuum
// when it is at most maxBytes (the switch rewrites the file once with
// VACUUM); a larger database keeps its mode. It reports the mode now in
// force. q must be the write pool, outside any transaction.
func (sqliteDialect) UseIncrementalVacuum(ctx context.Context, q Querier, maxBytes int64) (bool, error) {
	var mode, pages, size int64
	if err := q.QueryRowContext(ctx, "PRAGMA auto_vacuum").Scan(&mode); err != nil {
		return false, err
	}
	if mode == 2 {
		return true, nil
	}
	if err := q.QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages); err != nil {
		return false, err
	}
	if err := q.QueryRowContext(ctx, "PRAGMA page_size").Scan(&size); err != nil {
		return false, err
	}
	if pages*size > maxBytes {
		return false, nil
	}
	if _, err := q.ExecContext(ctx, "PRAGMA auto_vacuum = INCREMENTAL"); err != nil {
		return false, err
	}
	if _, err := q.ExecContext(ctx, "VACUUM"); err != nil {
		return false, fmt.Errorf("vacuum: %w", err)
	}
	return true, nil
}

// ReclaimFreePages gives up to maxPages free pages back to the file
// system (in incremental auto-vacuum mode) and reports how many free
// pages there were.
func (sqliteDialect) ReclaimFreePages(ctx context.Context, q Querier, maxPages int) (int64, error) {
	var free int64
	if err := q.QueryRowContext(ctx, "PRAGMA freelist_count").Scan(&free); err != nil {
		return 0, err
	}
	if free == 0 {
		return 0, nil
	}
	_, err := q.ExecContext(ctx, fmt.Sprintf("PRAGMA incremental_vacuum(%d)", maxPages))
	return free, err
}

func (postgresDialect) UseIncrementalVacuum(context.Context, Querier, int64) (bool, error) {
	return false, nil
}

func (postgresDialect) ReclaimFreePages(context.Context, Querier, int) (int64, error) {
	return 0, nil
}
