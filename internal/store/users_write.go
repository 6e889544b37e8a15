package store

import (
	"context"
	"errors"
	"fmt"
)

// ErrUserExists is InsertUser's answer for an id already taken.
var ErrUserExists = errors.New("user exists")

// Changes of users after their creation: profile fields, role, deletion,
// and who owns the records of projects.

// InsertUser creates a user; an existing id is ErrUserExists.
func (db *DB) InsertUser(ctx context.Context, u User) error {
	doc, err := u.doc()
	if err != nil {
		return err
	}
	res, err := db.Write().ExecContext(ctx, `INSERT INTO users (id, company, name, role, created, doc) VALUES (?, ?, ?, ?, ?, `+db.D.JSONParam()+`)
		ON CONFLICT (id) DO NOTHING`, u.ID, u.Company, u.Name, u.Role, u.Created, doc)
	if ok, err := affected(res, err); err != nil || ok {
		return err
	}
	return fmt.Errorf("user %s: %w", u.ID, ErrUserExists)
}

// SaveUser writes a loaded user back (its columns and document) when it
// is still in company; ErrNotFound otherwise.
func (db *DB) SaveUser(ctx context.Context, u User) error {
	doc, err := u.doc()
	if err != nil {
		return err
	}
	res, err := db.Write().ExecContext(ctx, `UPDATE users SET name = ?, role = ?, doc = `+db.D.JSONParam()+` WHERE id = ? AND company = ?`,
		u.Name, u.Role, doc, u.ID, u.Company)
	if ok, err := affected(res, err); err != nil || ok {
		return err
	}
	return fmt.Errorf("user %s: %w", u.ID, ErrNotFound)
}

// SetUserRole gives a user of company a new role and a new token
// generation, so the tokens it holds stop working; ErrNotFound when there
// is no such user.
func (db *DB) SetUserRole(ctx context.Context, u User, role string) error {
	u.Role = role
	doc, err := u.doc()
	if err != nil {
		return err
	}
	res, err := db.Write().ExecContext(ctx, `UPDATE users SET role = ?, doc = `+db.D.JSONParam()+`, token_generation = token_generation + 1
		WHERE id = ? AND company = ?`, role, doc, u.ID, u.Company)
	if ok, err := affected(res, err); err != nil || ok {
		return err
	}
	return fmt.Errorf("user %s: %w", u.ID, ErrNotFound)
}

// DeleteUser removes a user of company with its access keys; ErrNotFound
// when there is none.
func (db *DB) DeleteUser(ctx context.Context, company, id string) error {
	return db.Tx(ctx, func(q Querier) error {
		if _, err := q.ExecContext(ctx, `DELETE FROM credentials WHERE user_id = ? AND company = ?`, id, company); err != nil {
			return err
		}
		res, err := q.ExecContext(ctx, `DELETE FROM users WHERE id = ? AND company = ?`, id, company)
		if ok, err := affected(res, err); err != nil || ok {
			return err
		}
		return fmt.Errorf("user %s: %w", id, ErrNotFound)
	})
}

// OwnerScan selects the owners (user ids) of the rows of a table of
// records: "projects", "tasks" or "models".
type OwnerScan struct {
	Table     string
	Companies []string
	// Projects limits the rows to these projects (project ids themselves
	// for the projects table); nil selects every row.
	Projects []string
}

// Owners lists the distinct user ids owning the rows the scan selects.
func (db *DB) Owners(ctx context.Context, s OwnerScan) ([]string, error) {
	var col string
	switch s.Table {
	case "projects":
		col = "id"
	case "tasks", "models":
		return db.RecordOwners(ctx, s.Table, s.Companies, s.Projects)
	default:
		return nil, fmt.Errorf("not a table of records: %q", s.Table)
	}
	where := "company IN (" + Placeholders(len(s.Companies)) + ")"
	args := Args(s.Companies)
	if s.Projects != nil {
		if len(s.Projects) == 0 {
			return nil, nil
		}
		where += " AND " + col + " IN (" + Placeholders(len(s.Projects)) + ")"
		args = append(args, Args(s.Projects)...)
	}
	return IDs(ctx, db.Read(), "SELECT DISTINCT user_id FROM "+s.Table+" WHERE "+where, args...)
}

// UserNames maps the ids of existing users to their names.
func (db *DB) UserNames(ctx context.Context, ids []string) (map[string]string, error) {
	out := map[string]string{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := db.Read().QueryContext(ctx, "SELECT id, name FROM users WHERE id IN ("+Placeholders(len(ids))+")", Args(ids)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id, name string
		if err := rows.Scan(&id, &name); err != nil {
			return nil, err
		}
		out[id] = name
	}
	return out, rows.Err()
}
