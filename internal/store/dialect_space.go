package store

import (
	"context"
	"database/sql"
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

// UsedBytes is the size of the pages in use (not on the free list).
func (sqliteDialect) UsedBytes(ctx context.Context, q Querier) (int64, error) {
	var pages, free, size int64
	err := q.QueryRowContext(ctx, "SELECT (SELECT page_count FROM pragma_page_count()), (SELECT freelist_count FROM pragma_freelist_count()), (SELECT page_size FROM pragma_page_size())").Scan(&pages, &free, &size)
	return (pages - free) * size, err
}

// UsedBytes is the size of the database, as pg_database_size reports it.
func (postgresDialect) UsedBytes(ctx context.Context, q Querier) (int64, error) {
	var n int64
	err := q.QueryRowContext(ctx, "SELECT pg_database_size(current_database())").Scan(&n)
	return n, err
}

// TableBytes sums the pages of each event table and index (the dbstat
// virtual table).
func (sqliteDialect) TableBytes(ctx context.Context, q Querier) (map[string]int64, error) {
	return nameSizes(q.QueryContext(ctx, "SELECT name, SUM(pgsize) FROM dbstat WHERE name LIKE 'event%' GROUP BY name"))
}

// TableBytes is the size of each event table's heap and of its indexes
// (TOAST included in the heap's figure).
func (postgresDialect) TableBytes(ctx context.Context, q Querier) (map[string]int64, error) {
	return nameSizes(q.QueryContext(ctx, `SELECT c.relname, pg_table_size(c.oid) FROM pg_class c
		WHERE c.relkind = 'r' AND c.relname LIKE 'event%' AND c.relnamespace = 'public'::regnamespace
		UNION ALL SELECT i.indexrelname, pg_relation_size(i.indexrelid) FROM pg_stat_user_indexes i WHERE i.relname LIKE 'event%'`))
}

func nameSizes(rows *sql.Rows, err error) (map[string]int64, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var name string
		var n int64
		if err := rows.Scan(&name, &n); err != nil {
			return nil, err
		}
		out[name] = n
	}
	return out, rows.Err()
}

// serverProcessDialect is a dialect whose database runs in a server
// process of its own (SQLite runs inside Trove).
type serverProcessDialect interface {
	backendPID(ctx context.Context, q Querier) (int, error)
}

// backendPID is the process id of the server process serving q's
// connection (a child of the postmaster).
func (postgresDialect) backendPID(ctx context.Context, q Querier) (int, error) {
	var pid int
	err := q.QueryRowContext(ctx, "SELECT pg_backend_pid()").Scan(&pid)
	return pid, err
}
