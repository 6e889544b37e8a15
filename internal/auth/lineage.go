package auth

import (
	"context"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
)

// MaxAncestors bounds the sessions a derived token carries. Past it the
// oldest middle ones are dropped: the root (the key/secret login) and the
// nearest parents stay, so logging out of either still reaches the token.
const MaxAncestors = 16

// lineage is the ancestor list of a token minted for id: id's own session
// then its ancestors, nearest first, bounded by MaxAncestors. An identity
// from key/secret has no session, so its tokens have no ancestors; an
// impersonated one has no session of its own but the caller's lineage.
func lineage(id *Identity) []string {
	if id.SessionID == "" {
		return id.Ancestors
	}
	chain := make([]string, 0, min(len(id.Ancestors)+1, MaxAncestors))
	chain = append(chain, id.SessionID)
	if len(id.Ancestors) < MaxAncestors {
		return append(chain, id.Ancestors...)
	}
	chain = append(chain, id.Ancestors[:MaxAncestors-2]...)
	return append(chain, id.Ancestors[len(id.Ancestors)-1])
}

// capExpiry keeps a derived token's expiry (zero: none) within its
// parent's, so a short-lived token cannot mint a longer-lived one.
func capExpiry(id *Identity, exp time.Time) time.Time {
	if id.ExpiresAt == 0 {
		return exp
	}
	parent := time.Unix(id.ExpiresAt, 0)
	if exp.IsZero() || parent.Before(exp) {
		return parent
	}
	return exp
}

// checkLineage refuses a token whose session, or any session it was
// derived from, was logged out.
func (s *Service) checkLineage(ctx context.Context, session string, ancestors []string) error {
	if session == "" {
		return nil
	}
	for _, id := range append([]string{session}, ancestors...) {
		revoked, err := s.sessionRevoked(ctx, id)
		if err != nil {
			return apierr.Internal(err)
		}
		if revoked {
			return apierr.RevokedToken()
		}
	}
	return nil
}
