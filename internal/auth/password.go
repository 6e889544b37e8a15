package auth

import (
	"context"
	"fmt"

	"golang.org/x/crypto/bcrypt"

	"github.com/trove-ml/trove/internal/store"
)

// putLogin stores (or clears) the web app login of a configured user (its
// id resolved): its username and the bcrypt hash of its password.
func putLogin(ctx context.Context, db *store.DB, u FixedUser) error {
	hash := u.PasswordHash
	switch {
	case u.Username == "":
		hash = ""
	case hash != "":
	default:
		h, err := bcrypt.GenerateFromPassword([]byte(u.Password), bcrypt.DefaultCost)
		if err != nil {
			return fmt.Errorf("user %q: hash password: %w", u.Username, err)
		}
		hash = string(h)
	}
	if err := db.SetUserLogin(ctx, u.ID, u.Username, hash); err != nil {
		return fmt.Errorf("user %q: %w", u.Username, err)
	}
	return nil
}

// PasswordLoginEnabled reports whether the login page should ask for a
// username and password (login.supported_modes' basic.enabled).
func (s *Service) PasswordLoginEnabled(ctx context.Context) (bool, error) {
	return s.env.DB.PasswordLoginEnabled(ctx)
}
