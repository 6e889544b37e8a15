package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// The web app's password login: a user's login name and bcrypt hash.

// SetUserLogin sets (or, with an empty username, clears) the login name
// and password hash of a user.
func (db *DB) SetUserLogin(ctx context.Context, user, username, hash string) error {
	var name any
	if username != "" {
		name = username
		// A login name moved to another user in the configuration.
		if _, err := db.Write().ExecContext(ctx, `UPDATE users SET username = NULL, password_hash = '' WHERE username = ? AND id <> ?`, username, user); err != nil {
			return err
		}
	}
	_, err := db.Write().ExecContext(ctx, `UPDATE users SET username = ?, password_hash = ? WHERE id = ?`, name, hash, user)
	return err
}

// UserLogin finds the user with this login name and returns its id and
// password hash (ErrNotFound when none).
func (db *DB) UserLogin(ctx context.Context, username string) (id, hash string, err error) {
	err = db.Read().QueryRowContext(ctx, `SELECT id, password_hash FROM users WHERE username = ?`, username).Scan(&id, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", fmt.Errorf("login %q: %w", username, ErrNotFound)
	}
	return id, hash, err
}

// PasswordLoginEnabled reports whether any user can log in with a
// password.
func (db *DB) PasswordLoginEnabled(ctx context.Context) (bool, error) {
	var n int
	err := db.Read().QueryRowContext(ctx, `SELECT COUNT(*) FROM users WHERE username IS NOT NULL AND password_hash <> ''`).Scan(&n)
	return n > 0, err
}

// ClearLoginsExcept removes the web app login of every user but these.
func (db *DB) ClearLoginsExcept(ctx context.Context, ids []string) error {
	q := `UPDATE users SET username = NULL, password_hash = '' WHERE username IS NOT NULL`
	if len(ids) > 0 {
		q += " AND id NOT IN (" + Placeholders(len(ids)) + ")"
	}
	_, err := db.Write().ExecContext(ctx, q, Args(ids)...)
	return err
}
