package store

import (
	"context"
	"fmt"
)

// Driven list queries: a page ordered first by a value kept in an indexed
// side table (MLflow's latest metric values) is read by walking that
// index in order and joining each entry to its row, so the database stops
// after the page instead of sorting every matching row.

// Driver is the side table walked in order: From names it with an alias,
// Where (with Args) selects its entries that hold a value, Row is the id
// of the listed table's row an entry belongs to and Value the value the
// page is ordered by.
type Driver struct {
	From  string
	Where string
	Args  []any
	Row   string
	Value string
}

// driven is the FROM and WHERE of a driven query over table.
func (db *DB) driven(table string, dr Driver, where string) string {
	return fmt.Sprintf("FROM %s %s %s ON %s.id = %s WHERE %s AND %s",
		dr.From, db.D.DrivingJoin(), table, table, dr.Row, dr.Where, where)
}

// ListIDsDriven is ListIDs over the rows that have a driver entry, walking
// the driver's index: order must start with dr.Value.
func (db *DB) ListIDsDriven(ctx context.Context, table string, dr Driver, where string, args []any, order string, orderArgs []any, limit, offset int) ([]string, error) {
	q := fmt.Sprintf("SELECT %s.id %s ORDER BY %s LIMIT ? OFFSET ?", table, db.driven(table, dr, where), order)
	all := append(append(append(append([]any{}, dr.Args...), args...), orderArgs...), limit, offset)
	ids, err := IDs(ctx, db.Read(), q, all...)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", table, err)
	}
	return ids, nil
}

// CountDriven counts the rows of ListIDsDriven.
func (db *DB) CountDriven(ctx context.Context, table string, dr Driver, where string, args []any) (int, error) {
	var n int
	err := db.Read().QueryRowContext(ctx, "SELECT COUNT(*) "+db.driven(table, dr, where),
		append(append([]any{}, dr.Args...), args...)...).Scan(&n)
	return n, err
}
