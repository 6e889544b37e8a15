package store

import (
	"context"
	"fmt"
)

// The list-query builder (internal/query) compiles a request into a WHERE
// clause and an ORDER BY over one table; these methods run them, so that
// statements are executed only here. table is one of the entity tables
// (the builder's callers name them as literals).

// InsertOrderKey asks ListDocs for the table's insertion order.
const InsertOrderKey = "__insert_order__"

// ListDocs runs "SELECT doc FROM table WHERE where ORDER BY order LIMIT
// limit OFFSET offset" on the read pool and hands each document to fn.
func (db *DB) ListDocs(ctx context.Context, table, where string, args []any, order string, orderArgs []any,
	limit, offset int, fn func(doc []byte) error) error {
	if order == InsertOrderKey {
		order = db.D.InsertOrder()
	}
	q := fmt.Sprintf("SELECT doc FROM %s WHERE %s ORDER BY %s LIMIT ? OFFSET ?", table, where, order)
	all := append(append(append([]any{}, args...), orderArgs...), limit, offset)
	rows, err := db.Read().QueryContext(ctx, q, all...)
	if err != nil {
		return fmt.Errorf("list %s: %w", table, err)
	}
	defer rows.Close()
	for rows.Next() {
		var doc []byte
		if err := rows.Scan(&doc); err != nil {
			return err
		}
		if err := fn(doc); err != nil {
			return err
		}
	}
	return rows.Err()
}

// ListIDs runs the query of ListDocs for the rows' ids, in order. A sort
// over many rows then carries ids, not documents (SQLite's sorter holds
// the selected columns of every row it sorts).
func (db *DB) ListIDs(ctx context.Context, table, where string, args []any, order string, orderArgs []any, limit, offset int) ([]string, error) {
	if order == InsertOrderKey {
		order = db.D.InsertOrder()
	}
	q := fmt.Sprintf("SELECT id FROM %s WHERE %s ORDER BY %s LIMIT ? OFFSET ?", table, where, order)
	all := append(append(append([]any{}, args...), orderArgs...), limit, offset)
	ids, err := IDs(ctx, db.Read(), q, all...)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", table, err)
	}
	return ids, nil
}

// CountWhere counts the rows of table matching where.
func (db *DB) CountWhere(ctx context.Context, table, where string, args []any) (int, error) {
	var n int
	err := db.Read().QueryRowContext(ctx, "SELECT COUNT(*) FROM "+table+" WHERE "+where, args...).Scan(&n)
	return n, err
}

// DocsByID hands fn the id and document of each row of table with one of
// the ids.
func (db *DB) DocsByID(ctx context.Context, table string, ids []string, fn func(id string, doc []byte) error) error {
	if len(ids) == 0 {
		return nil
	}
	rows, err := db.Read().QueryContext(ctx, "SELECT id, doc FROM "+table+" WHERE id IN ("+Placeholders(len(ids))+")", Args(ids)...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var doc []byte
		if err := rows.Scan(&id, &doc); err != nil {
			return err
		}
		if err := fn(id, doc); err != nil {
			return err
		}
	}
	return rows.Err()
}
