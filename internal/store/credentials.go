package store

import "context"

// The access keys of one user: listing, labels, revocation and the record
// of their last use.

// UserCredentials lists the access keys of a user of company, oldest first.
func (db *DB) UserCredentials(ctx context.Context, company, user string) ([]Credential, error) {
	rows, err := db.Read().QueryContext(ctx, `SELECT access_key, label, last_used, last_used_from FROM credentials
		WHERE company = ? AND user_id = ? ORDER BY created, access_key`, company, user)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Credential{}
	for rows.Next() {
		c := Credential{UserID: user, Company: company}
		if err := rows.Scan(&c.AccessKey, &c.Label, &c.LastUsed, &c.LastUsedFrom); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// SetCredentialLabel labels an access key of a user of company and
// reports whether the key was found.
func (db *DB) SetCredentialLabel(ctx context.Context, company, user, key, label string) (bool, error) {
	res, err := db.Write().ExecContext(ctx, `UPDATE credentials SET label = ? WHERE access_key = ? AND user_id = ? AND company = ?`,
		label, key, user, company)
	return affected(res, err)
}

// DeleteCredential removes an access key of a user of company and reports
// whether it was found.
func (db *DB) DeleteCredential(ctx context.Context, company, user, key string) (bool, error) {
	res, err := db.Write().ExecContext(ctx, `DELETE FROM credentials WHERE access_key = ? AND user_id = ? AND company = ?`,
		key, user, company)
	return affected(res, err)
}

// TouchCredential records when (epoch ms) and from where a key was last
// used.
func (db *DB) TouchCredential(ctx context.Context, key string, when int64, from string) error {
	_, err := db.Write().ExecContext(ctx, `UPDATE credentials SET last_used = ?, last_used_from = ? WHERE access_key = ?`, when, from, key)
	return err
}

// affected turns an update's result into "did it change a row".
func affected(res interface{ RowsAffected() (int64, error) }, err error) (bool, error) {
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}
