package store

import (
	"database/sql"
	"errors"
	"fmt"
)

// NoRow turns sql.ErrNoRows into ErrNotFound naming what was looked up;
// other errors pass through. The event store below uses it too.
func NoRow(err error, what string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	return err
}
