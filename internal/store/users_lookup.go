package store

import "context"

// UserByName finds a user of the company by name (ErrNotFound when none).
func (db *DB) UserByName(ctx context.Context, company, name string) (User, error) {
	u := User{Company: company, Name: name}
	rows, err := db.Read().QueryContext(ctx, `SELECT id, role, created FROM users WHERE company = ? AND name = ? ORDER BY created, id`, company, name)
	if err != nil {
		return u, err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return u, err
		}
		return u, ErrNotFound
	}
	err = rows.Scan(&u.ID, &u.Role, &u.Created)
	return u, err
}
