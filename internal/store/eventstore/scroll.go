package eventstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/trove-ml/trove/internal/store"
)

// ScrollState is a stored browsing state of debug images or plots.
type ScrollState struct {
	ID, Company, Kind, State string
	// Expires is epoch ms.
	Expires int64
}

// PutScrollState inserts or rewrites a state; an expired state under the
// same id is replaced, a live state of another company is not touched.
func (s *Store) PutScrollState(ctx context.Context, st ScrollState, now int64) error {
	_, err := s.db.Write().ExecContext(ctx, `INSERT INTO event_scrolls (id, company, kind, state, expires) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET state = excluded.state, expires = excluded.expires, kind = excluded.kind, company = excluded.company
		WHERE event_scrolls.company = excluded.company OR event_scrolls.expires < ?`, st.ID, st.Company, st.Kind, st.State, st.Expires, now)
	return err
}

// GetScrollState loads a live state of the company and kind.
func (s *Store) GetScrollState(ctx context.Context, id, company, kind string, now int64) (*ScrollState, error) {
	st := ScrollState{ID: id, Company: company, Kind: kind}
	err := s.db.Read().QueryRowContext(ctx, `SELECT state, expires FROM event_scrolls WHERE id = ? AND company = ? AND kind = ? AND expires > ?`,
		id, company, kind, now).Scan(&st.State, &st.Expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("scroll %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	return &st, nil
}

// DeleteScrollState removes a state of the company.
func (s *Store) DeleteScrollState(ctx context.Context, id, company string) error {
	_, err := s.db.Write().ExecContext(ctx, `DELETE FROM event_scrolls WHERE id = ? AND company = ?`, id, company)
	return err
}

// DeleteExpiredScrollStates removes states past their expiry.
func (s *Store) DeleteExpiredScrollStates(ctx context.Context, now int64) error {
	_, err := s.db.Write().ExecContext(ctx, `DELETE FROM event_scrolls WHERE expires < ?`, now)
	return err
}
