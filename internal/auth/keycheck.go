package auth

import (
	"context"
	"errors"
	"sync"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/store"
)

// unknownKeyHash is compared against for keys that do not exist, so an
// unknown key costs the same bcrypt work as a known one with a wrong
// secret and timing does not tell which keys exist. Its cost is the one
// HashSecret stores with.
var unknownKeyHash = sync.OnceValue(func() []byte {
	h, err := bcrypt.GenerateFromPassword([]byte(RandomKey(32, true)), bcrypt.DefaultCost)
	if err != nil {
		panic("auth: cannot hash the unknown-key secret: " + err.Error())
	}
	return h
})

// CheckKey verifies an access key and secret presented from addr (the
// caller's network address, "" when unknown). Failures are throttled per
// key and per address: past the allowance the answer is 429 before any
// lookup or bcrypt work.
func (s *Service) CheckKey(ctx context.Context, key, secret, addr string) (*Identity, error) {
	if s.verified.match(keyMark(key), []byte(secret), time.Now()) {
		// This very secret matched this key within verifiedTTL: the check
		// costs no bcrypt, so it is not counted among the attempts under
		// way, which refused the calls of a busy host (MLflow's client
		// sends Basic on every call: 1,000 runs of one host got 429s). A
		// key or address held by failures is still held, whatever the
		// secret, and a failure here still counts.
		if !s.throttle.allows(key, addr, s.env.Now()) {
			return nil, apierr.TooManyFailedLogins(retryAfterSeconds)
		}
		id, err := s.checkKey(ctx, key, secret, addr)
		if isBadCredentials(err) {
			s.verified.forget(keyMark(key), []byte(secret))
			s.throttle.fail(key, addr, s.env.Now())
		}
		return id, err
	}
	if !s.throttle.begin(key, addr, s.env.Now()) {
		return nil, apierr.TooManyFailedLogins(retryAfterSeconds)
	}
	id, err := s.checkKey(ctx, key, secret, addr)
	s.throttle.end(key, addr, s.env.Now(), isBadCredentials(err))
	return id, err
}

func (s *Service) checkKey(ctx context.Context, key, secret, addr string) (*Identity, error) {
	cred, err := s.env.DB.GetCredential(ctx, key)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return s.checkPassword(ctx, key, secret)
	case err != nil:
		return nil, apierr.Internal(err)
	}
	if s.compareSecret(cred.SecretHash, secret) != nil {
		return nil, apierr.InvalidCredentials()
	}
	s.verified.remember(keyMark(key), []byte(secret), time.Now())
	if err := s.recordUse(ctx, cred, addr); err != nil {
		return nil, apierr.Internal(err)
	}
	id, err := s.identityFor(ctx, cred.UserID)
	if err != nil {
		return nil, err
	}
	id.AccessKey = cred.AccessKey
	return id, nil
}

// checkPassword checks a web app login: the "key" is a username and the
// "secret" its password.
func (s *Service) checkPassword(ctx context.Context, username, password string) (*Identity, error) {
	id, hash, err := s.env.DB.UserLogin(ctx, username)
	switch {
	case errors.Is(err, store.ErrNotFound):
		_ = s.compare(unknownKeyHash(), []byte(password))
		return nil, apierr.InvalidCredentials()
	case err != nil:
		return nil, apierr.Internal(err)
	}
	if s.compare([]byte(hash), []byte(password)) != nil {
		return nil, apierr.InvalidCredentials()
	}
	return s.identityFor(ctx, id)
}

// useInterval is how stale a key's last-use record may get: recording
// every call would write on every Basic-authenticated request.
const useInterval = time.Minute

// recordUse notes when and from where a key was used (auth.get_credentials
// shows it).
func (s *Service) recordUse(ctx context.Context, cred store.Credential, addr string) error {
	now := s.env.Now()
	if now.UnixMilli()-cred.LastUsed < useInterval.Milliseconds() {
		return nil
	}
	return s.env.DB.TouchCredential(ctx, cred.AccessKey, now.UnixMilli(), addr)
}

// isBadCredentials tells a failed login (it counts against the
// allowance) from a server fault (it does not).
func isBadCredentials(err error) bool {
	ae := apierr.As(err)
	return ae != nil && ae.Code == 401
}

func (s *Service) identityFor(ctx context.Context, userID string) (*Identity, error) {
	u, err := s.env.DB.GetUser(ctx, userID)
	if err != nil {
		return nil, apierr.InvalidCredentials()
	}
	c, err := s.env.DB.GetCompany(ctx, u.Company)
	if err != nil {
		return nil, apierr.InvalidCredentials()
	}
	return &Identity{UserID: u.ID, UserName: u.Name, CompanyID: c.ID, CompanyName: c.Name, Role: u.Role,
		TokenGeneration: u.TokenGeneration}, nil
}
