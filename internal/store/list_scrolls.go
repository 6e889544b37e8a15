package store

import (
	"context"
	"database/sql"
	"errors"
)

// List scrolls (get_all with scroll_id) keep their position in the
// database, so every Trove process continues the same scroll.

// ListScrollPosition returns the position of a live scroll of the
// company; ok is false for an unknown or expired one.
func (db *DB) ListScrollPosition(ctx context.Context, id, company string, nowMillis int64) (pos int, ok bool, err error) {
	err = db.Read().QueryRowContext(ctx, `SELECT position FROM list_scrolls WHERE id = ? AND company = ? AND expires > ?`,
		id, company, nowMillis).Scan(&pos)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return pos, err == nil, err
}

// SaveListScroll stores a scroll's position until expiresMillis, and
// drops the scrolls that expired before nowMillis.
func (db *DB) SaveListScroll(ctx context.Context, id, company string, pos int, nowMillis, expiresMillis int64) error {
	return db.Tx(ctx, func(q Querier) error {
		if _, err := q.ExecContext(ctx, `DELETE FROM list_scrolls WHERE expires < ?`, nowMillis); err != nil {
			return err
		}
		_, err := q.ExecContext(ctx, `INSERT INTO list_scrolls (id, company, position, expires) VALUES (?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET position = excluded.position, expires = excluded.expires`,
			id, company, pos, expiresMillis)
		return err
	})
}
