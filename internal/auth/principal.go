package auth

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/store"
)

// A token is only as good as the user and key it was minted for. Besides
// its signature, expiry and logout (lineage.go), every call checks the
// token against their current state, read from the store and trusted for
// principalTTL:
//
//   - the user still exists (users.delete removes it);
//   - its role is still the token's (auth.edit_user, or a configured
//     user's role changed between starts);
//   - its token generation is still the token's: every change of role
//     moves it on, so a role changed and changed back does not revive the
//     tokens of before;
//   - the access key the token's lineage logged in with still exists
//     (auth.revoke_credentials and users.delete delete it).
//
// A token failing any of these is 401 "revoked token": the SDK and the web
// app then log in again and get a token with the current role. Every
// process on the database reads the same rows, so a change made through
// any of them reaches the tokens on all within principalTTL; the process
// that made it forgets its cached answer at once (Forget*).

// principalTTL is how long the state of a user or key is trusted.
const principalTTL = revocationTTL

type userState struct {
	found      bool
	role       string
	generation int64
	checked    time.Time
}

type keyState struct {
	found   bool
	checked time.Time
}

// principalCache holds the last read state of users and keys.
type principalCache struct {
	mu    sync.RWMutex
	users map[string]userState
	keys  map[string]keyState
}

// maxCachedPrincipals bounds each map; past it the map starts afresh.
const maxCachedPrincipals = 100000

func (c *principalCache) user(id string, now time.Time) (userState, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	st, ok := c.users[id]
	if !ok || now.Sub(st.checked) >= principalTTL || now.Before(st.checked) {
		return st, false
	}
	return st, true
}

func (c *principalCache) putUser(id string, st userState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.users == nil || len(c.users) >= maxCachedPrincipals {
		c.users = map[string]userState{}
	}
	c.users[id] = st
}

func (c *principalCache) key(k string, now time.Time) (keyState, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	st, ok := c.keys[k]
	if !ok || now.Sub(st.checked) >= principalTTL || now.Before(st.checked) {
		return st, false
	}
	return st, true
}

func (c *principalCache) putKey(k string, st keyState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.keys == nil || len(c.keys) >= maxCachedPrincipals {
		c.keys = map[string]keyState{}
	}
	c.keys[k] = st
}

// checkPrincipal refuses a token whose user (or impersonator) is gone or
// has another role or token generation, or whose access key was revoked.
func (s *Service) checkPrincipal(ctx context.Context, id *Identity) error {
	now := s.env.Now()
	if err := s.checkUser(ctx, now, id.UserID, id.Role, id.TokenGeneration); err != nil {
		return err
	}
	if imp := id.Impersonator; imp != nil {
		if err := s.checkUser(ctx, now, imp.UserID, imp.Role, imp.TokenGeneration); err != nil {
			return err
		}
	}
	if id.AccessKey == "" {
		return nil
	}
	k, ok := s.principals.key(id.AccessKey, now)
	if !ok {
		found, err := s.env.DB.CredentialExists(ctx, id.AccessKey)
		if err != nil {
			return apierr.Internal(err)
		}
		k = keyState{found: found, checked: now}
		s.principals.putKey(id.AccessKey, k)
	}
	if !k.found {
		return apierr.RevokedToken()
	}
	return nil
}

// checkUser refuses unless user exists with this role and token
// generation.
func (s *Service) checkUser(ctx context.Context, now time.Time, user, role string, generation int64) error {
	u, ok := s.principals.user(user, now)
	if !ok {
		r, gen, err := s.env.DB.UserTokenState(ctx, user)
		switch {
		case errors.Is(err, store.ErrNotFound):
			u = userState{checked: now}
		case err != nil:
			return apierr.Internal(err)
		default:
			u = userState{found: true, role: r, generation: gen, checked: now}
		}
		s.principals.putUser(user, u)
	}
	if !u.found || u.role != role || u.generation != generation {
		return apierr.RevokedToken()
	}
	return nil
}

// ForgetUser drops the cached state of a user, so this process sees a
// change of it (role, deletion) at the next call.
func (s *Service) ForgetUser(id string) {
	s.principals.mu.Lock()
	defer s.principals.mu.Unlock()
	delete(s.principals.users, id)
}

// ForgetKey drops the cached state of an access key, so this process sees
// its revocation at the next call.
func (s *Service) ForgetKey(key string) {
	s.principals.mu.Lock()
	defer s.principals.mu.Unlock()
	delete(s.principals.keys, key)
}
