package store

import (
	"context"
	"encoding/json"
	"errors"
)

// PreparedDownload is a table download prepared by
// organization.prepare_download_for_get_all: the list query to run when
// the file is fetched.
type PreparedDownload struct {
	ID      string `json:"id"`
	Company string `json:"company"`
	// Expires is epoch milliseconds.
	Expires    int64           `json:"expires"`
	EntityType string          `json:"entity_type"`
	Body       json.RawMessage `json:"body"`
}

// RecordID implements Record.
func (p *PreparedDownload) RecordID() string { return p.ID }

// ColumnValues implements Record.
func (p *PreparedDownload) ColumnValues() []any { return []any{p.Company, p.Expires} }

// PreparedDownloads is the prepared_downloads table.
func (db *DB) PreparedDownloads() *Table[PreparedDownload, *PreparedDownload] {
	return &Table[PreparedDownload, *PreparedDownload]{DB: db, Name: "prepared_downloads", Cols: []string{"company", "expires"}}
}

// SavePreparedDownload stores a prepared download and drops those that
// expired before now (epoch ms).
func (db *DB) SavePreparedDownload(ctx context.Context, p *PreparedDownload, now int64) error {
	return db.Tx(ctx, func(q Querier) error {
		if _, err := q.ExecContext(ctx, `DELETE FROM prepared_downloads WHERE expires < ?`, now); err != nil {
			return err
		}
		return db.PreparedDownloads().Insert(ctx, q, p)
	})
}

// LivePreparedDownload loads a prepared download of the company not
// expired at now (epoch ms); ok is false for an unknown or expired one.
func (db *DB) LivePreparedDownload(ctx context.Context, id, company string, now int64) (p *PreparedDownload, ok bool, err error) {
	p, err = db.PreparedDownloads().Get(ctx, db.Read(), id, company)
	if errors.Is(err, ErrNotFound) || (err == nil && p.Expires <= now) {
		return nil, false, nil
	}
	return p, err == nil, err
}
