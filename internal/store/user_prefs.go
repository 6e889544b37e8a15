package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// UserPreferences reads the preferences JSON text of a user of company
// (ErrNotFound when there is no such user); lock locks the row for a
// change in the transaction q.
func (db *DB) UserPreferences(ctx context.Context, q Querier, company, user string, lock bool) (string, error) {
	suffix := ""
	if lock {
		suffix = db.D.ForUpdate()
	}
	var v string
	err := q.QueryRowContext(ctx, `SELECT preferences FROM users WHERE id = ? AND company = ?`+suffix, user, company).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("user %s: %w", user, ErrNotFound)
	}
	return v, err
}

// SetUserPreferences replaces the preferences JSON text of a user.
func (db *DB) SetUserPreferences(ctx context.Context, q Querier, company, user, prefs string) error {
	_, err := q.ExecContext(ctx, `UPDATE users SET preferences = ? WHERE id = ? AND company = ?`, prefs, user, company)
	return err
}
