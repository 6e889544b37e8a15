package main

import (
	"context"
	"database/sql"

	"github.com/trove-ml/trove/internal/store"
)

// What the space and CPU figures of the event benchmarks read from the
// database itself.

// usedBytes is the space the database's data takes, which benchmarks
// divide by the points stored: on SQLite the pages in use (not on the
// free list), on PostgreSQL the database's size.
func usedBytes(ctx context.Context, db *store.DB) (int64, error) {
	q := db.Read()
	if db.IsPostgres() {
		var n int64
		err := q.QueryRowContext(ctx, "SELECT pg_database_size(current_database())").Scan(&n)
		return n, err
	}
	var pages, free, size int64
	err := q.QueryRowContext(ctx, "SELECT (SELECT page_count FROM pragma_page_count()), (SELECT freelist_count FROM pragma_freelist_count()), (SELECT page_size FROM pragma_page_size())").Scan(&pages, &free, &size)
	return (pages - free) * size, err
}

// tableBytes is the space of each event table and index, by name: on
// SQLite the pages of the dbstat virtual table, on PostgreSQL each
// table's heap (TOAST included) and each index.
func tableBytes(ctx context.Context, db *store.DB) (map[string]int64, error) {
	q := db.Read()
	if db.IsPostgres() {
		return nameSizes(q.QueryContext(ctx, `SELECT c.relname, pg_table_size(c.oid) FROM pg_class c
		WHERE c.relkind = 'r' AND c.relname LIKE 'event%' AND c.relnamespace = 'public'::regnamespace
		UNION ALL SELECT i.indexrelname, pg_relation_size(i.indexrelid) FROM pg_stat_user_indexes i WHERE i.relname LIKE 'event%'`))
	}
	return nameSizes(q.QueryContext(ctx, "SELECT name, SUM(pgsize) FROM dbstat WHERE name LIKE 'event%' GROUP BY name"))
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

// serverPID is the process id of a database server process serving one
// of the read connections (a child of the postmaster), or 0 when the
// database runs inside Trove (SQLite); benchmarks find the server's
// processes from it to price the server's CPU per point.
func serverPID(ctx context.Context, db *store.DB) (int, error) {
	if !db.IsPostgres() {
		return 0, nil
	}
	var pid int
	err := db.Read().QueryRowContext(ctx, "SELECT pg_backend_pid()").Scan(&pid)
	return pid, err
}
