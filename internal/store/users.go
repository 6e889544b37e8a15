package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/trove-ml/trove/internal/jsonx"
)

// Company is an organization; every record belongs to one.
type Company struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// User is a person or service account of a company. Its document holds
// the fields answers show; Username is the web app login name (empty when
// the user cannot log in with a password).
type User struct {
	ID         string `json:"id"`
	Company    string `json:"company"`
	Name       string `json:"name"`
	GivenName  string `json:"given_name,omitempty"`
	FamilyName string `json:"family_name,omitempty"`
	Email      string `json:"email,omitempty"`
	Avatar     string `json:"avatar,omitempty"`
	Role       string `json:"role"`
	// CreatedInVersion is the server version that created the user (the
	// app shows the changes made since).
	CreatedInVersion string `json:"created_in_version,omitempty"`
	Created          int64  `json:"-"`
	Username         string `json:"-"`
	// TokenGeneration moves on whenever the user's role changes; tokens
	// of an older generation are refused (auth.Service.VerifyToken).
	TokenGeneration int64 `json:"-"`
}

// userDoc is the stored document of a user: its fields plus the creation
// time in the API's date form.
type userDoc struct {
	User
	CreatedAt string `json:"created"`
}

func (u User) doc() (string, error) {
	b, err := json.Marshal(userDoc{User: u, CreatedAt: jsonx.FromMillis(u.Created).Format()})
	return string(b), err
}

// Credential is an access key of a user; the secret is stored hashed.
type Credential struct {
	AccessKey  string
	SecretHash string
	UserID     string
	Company    string
	Label      string
	// LastUsed is epoch ms (0 = never), LastUsedFrom the caller's address.
	LastUsed     int64
	LastUsedFrom string
}

// EnsureCompany creates the company or updates its name.
func (db *DB) EnsureCompany(ctx context.Context, c Company) error {
	_, err := db.Write().ExecContext(ctx, `INSERT INTO companies (id, name, doc) VALUES (?, ?, `+db.D.JSONParam()+`)
		ON CONFLICT (id) DO UPDATE SET name = excluded.name, doc = excluded.doc`,
		c.ID, c.Name, fmt.Sprintf(`{"id":%q,"name":%q}`, c.ID, c.Name))
	return err
}

// GetCompany loads a company.
func (db *DB) GetCompany(ctx context.Context, id string) (Company, error) {
	c := Company{ID: id}
	err := db.Read().QueryRowContext(ctx, `SELECT name FROM companies WHERE id = ?`, id).Scan(&c.Name)
	if errors.Is(err, sql.ErrNoRows) {
		return c, fmt.Errorf("company %s: %w", id, ErrNotFound)
	}
	return c, err
}

// UpsertUser creates or updates a user (its login name and password are
// set apart, by SetUserLogin).
func (db *DB) UpsertUser(ctx context.Context, u User) error {
	if u.Created == 0 {
		u.Created = time.Now().UnixMilli()
	}
	doc, err := u.doc()
	if err != nil {
		return err
	}
	// A configured user whose role changed between starts gets a new
	// token generation, as auth.edit_user gives one.
	_, err = db.Write().ExecContext(ctx, `INSERT INTO users (id, company, name, role, created, doc) VALUES (?, ?, ?, ?, ?, `+db.D.JSONParam()+`)
		ON CONFLICT (id) DO UPDATE SET company = excluded.company, name = excluded.name, role = excluded.role, doc = excluded.doc,
		token_generation = CASE WHEN users.role = excluded.role THEN users.token_generation ELSE users.token_generation + 1 END`,
		u.ID, u.Company, u.Name, u.Role, u.Created, doc)
	return err
}

// GetUser loads a user.
func (db *DB) GetUser(ctx context.Context, id string) (User, error) {
	var doc []byte
	var username sql.NullString
	u := User{}
	var gen int64
	err := db.Read().QueryRowContext(ctx, `SELECT doc, created, username, token_generation FROM users WHERE id = ?`, id).Scan(&doc, &u.Created, &username, &gen)
	if errors.Is(err, sql.ErrNoRows) {
		return User{ID: id}, fmt.Errorf("user %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return u, err
	}
	if err := json.Unmarshal(doc, &u); err != nil {
		return u, fmt.Errorf("user %s: %w", id, err)
	}
	u.ID, u.Username, u.TokenGeneration = id, username.String, gen
	return u, nil
}

// UserTokenState is what a token of user is checked against on every
// call: the user's current role and token generation. ErrNotFound when
// the user is gone.
func (db *DB) UserTokenState(ctx context.Context, id string) (role string, generation int64, err error) {
	err = db.Read().QueryRowContext(ctx, `SELECT role, token_generation FROM users WHERE id = ?`, id).Scan(&role, &generation)
	if errors.Is(err, sql.ErrNoRows) {
		return "", 0, fmt.Errorf("user %s: %w", id, ErrNotFound)
	}
	return role, generation, err
}

// CredentialExists reports whether an access key is still stored (a
// revoked key is deleted).
func (db *DB) CredentialExists(ctx context.Context, key string) (bool, error) {
	var n int
	err := db.Read().QueryRowContext(ctx, `SELECT COUNT(*) FROM credentials WHERE access_key = ?`, key).Scan(&n)
	return n > 0, err
}

// PutCredential stores (or replaces) an access key.
func (db *DB) PutCredential(ctx context.Context, c Credential) error {
	_, err := db.Write().ExecContext(ctx, `INSERT INTO credentials (access_key, secret_hash, user_id, company, created, label) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (access_key) DO UPDATE SET secret_hash = excluded.secret_hash, user_id = excluded.user_id, company = excluded.company`,
		c.AccessKey, c.SecretHash, c.UserID, c.Company, time.Now().UnixMilli(), c.Label)
	return err
}

// GetCredential loads an access key.
func (db *DB) GetCredential(ctx context.Context, key string) (Credential, error) {
	c := Credential{AccessKey: key}
	err := db.Read().QueryRowContext(ctx, `SELECT secret_hash, user_id, company, label, last_used FROM credentials WHERE access_key = ?`, key).
		Scan(&c.SecretHash, &c.UserID, &c.Company, &c.Label, &c.LastUsed)
	if errors.Is(err, sql.ErrNoRows) {
		return c, fmt.Errorf("credential: %w", ErrNotFound)
	}
	return c, err
}

// CountCredentials returns how many access keys exist.
func (db *DB) CountCredentials(ctx context.Context) (int, error) {
	var n int
	err := db.Read().QueryRowContext(ctx, `SELECT COUNT(*) FROM credentials`).Scan(&n)
	return n, err
}

// GetSetting reads a server setting ("" when unset).
func (db *DB) GetSetting(ctx context.Context, key string) (string, error) {
	var v string
	err := db.Read().QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

// SetSettingIfAbsent stores a setting unless present and returns the stored
// value (so concurrent starts agree on one value).
func (db *DB) SetSettingIfAbsent(ctx context.Context, key, value string) (string, error) {
	if _, err := db.Write().ExecContext(ctx, `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING`, key, value); err != nil {
		return "", err
	}
	var v string
	err := db.Write().QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
	return v, err
}

// RevokeSession records a logged-out token session until it would expire.
func (db *DB) RevokeSession(ctx context.Context, sessionID string, expires int64) error {
	_, err := db.Write().ExecContext(ctx, `INSERT INTO revoked_sessions (session_id, expires) VALUES (?, ?) ON CONFLICT (session_id) DO NOTHING`, sessionID, expires)
	return err
}

// SessionRevoked reports whether a token session was logged out.
func (db *DB) SessionRevoked(ctx context.Context, sessionID string) (bool, error) {
	var n int
	err := db.Read().QueryRowContext(ctx, `SELECT COUNT(*) FROM revoked_sessions WHERE session_id = ?`, sessionID).Scan(&n)
	return n > 0, err
}

// CountCompanyUsers returns the number of users of a company.
func (db *DB) CountCompanyUsers(ctx context.Context, company string) (int, error) {
	var n int
	err := db.Read().QueryRowContext(ctx, `SELECT COUNT(*) FROM users WHERE company = ?`, company).Scan(&n)
	return n, err
}

// CompanyOwners returns the admin users of a company.
func (db *DB) CompanyOwners(ctx context.Context, company string) ([]User, error) {
	rows, err := db.Read().QueryContext(ctx, `SELECT id, name, role FROM users WHERE company = ? AND role IN ('admin', 'root', 'system') ORDER BY name`, company)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []User
	for rows.Next() {
		u := User{Company: company}
		if err := rows.Scan(&u.ID, &u.Name, &u.Role); err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}
