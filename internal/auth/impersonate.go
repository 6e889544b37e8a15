package auth

import (
	"context"
	"errors"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/store"
)

// Impersonate returns the identity of user for a caller sending the
// Impersonate-As header: only system, root and admin callers may, root and
// system across companies, an admin inside its own. The call then runs
// with the user's identity and role.
func (s *Service) Impersonate(ctx context.Context, caller *Identity, user string) (*Identity, error) {
	if caller.Role != RoleSystem && caller.Role != RoleRoot && caller.Role != RoleAdmin {
		return nil, apierr.ImpersonationError("impersonation not allowed", "role", caller.Role)
	}
	u, err := s.env.DB.GetUser(ctx, user)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	if err != nil || (!systemRole(caller.Role) && u.Company != caller.CompanyID) {
		return nil, apierr.ImpersonationError("unknown user", "id", user)
	}
	c, err := s.env.DB.GetCompany(ctx, u.Company)
	if err != nil {
		return nil, apierr.ImpersonationError("unknown company for user", "id", user)
	}
	// The identity keeps the caller's lineage, key and expiry: a token
	// minted while impersonating is logged out, revoked and expires with
	// the caller's, and stops when the caller's role changes.
	imp := &Impersonator{UserID: caller.UserID, Role: caller.Role, TokenGeneration: caller.TokenGeneration}
	if caller.Impersonator != nil {
		imp = caller.Impersonator
	}
	return &Identity{UserID: u.ID, UserName: u.Name, CompanyID: c.ID, CompanyName: c.Name, Role: u.Role,
		TokenGeneration: u.TokenGeneration, AccessKey: caller.AccessKey, Ancestors: lineage(caller),
		ExpiresAt: caller.ExpiresAt, Impersonator: imp}, nil
}
