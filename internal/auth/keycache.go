package auth

import (
	"crypto/sha256"
	"sync"
	"time"
)

// Clients that send an access key and secret on every request (MLflow's
// HTTP Basic) would pay a bcrypt comparison per call. verifiedSecrets
// remembers, for verifiedTTL, that a secret matched a stored bcrypt hash:
// the pair (stored hash, SHA-256 of the secret). The credential is still
// read on every call, so a deleted or rotated key is refused at once;
// only the comparison is skipped, and only for the exact secret that
// matched the hash the key still has.
const (
	verifiedTTL = 5 * time.Minute
	verifiedMax = 10000
)

type verifiedKey struct {
	hash   string
	secret [sha256.Size]byte
}

type verifiedSecrets struct {
	mu sync.Mutex
	m  map[verifiedKey]time.Time
}

// keyMark stands for an access key in place of a stored hash: that the
// secret matched the key (CheckKey skips the throttle for it). No bcrypt
// hash starts with "key:".
func keyMark(accessKey string) string { return "key:" + accessKey }

// forget drops what remember recorded for (hash, secret).
func (v *verifiedSecrets) forget(hash string, secret []byte) {
	v.mu.Lock()
	defer v.mu.Unlock()
	delete(v.m, verifiedKey{hash, sha256.Sum256(secret)})
}

// match reports whether secret is known to match hash at now.
func (v *verifiedSecrets) match(hash string, secret []byte, now time.Time) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	until, ok := v.m[verifiedKey{hash, sha256.Sum256(secret)}]
	return ok && now.Before(until)
}

// remember records that secret matched hash at now.
func (v *verifiedSecrets) remember(hash string, secret []byte, now time.Time) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m == nil || len(v.m) >= verifiedMax {
		v.m = map[verifiedKey]time.Time{} // bounded: start over when full
	}
	v.m[verifiedKey{hash, sha256.Sum256(secret)}] = now.Add(verifiedTTL)
}

// compareSecret checks secret against a stored bcrypt hash, skipping the
// bcrypt work for a pair verified within verifiedTTL.
func (s *Service) compareSecret(hash string, secret string) error {
	now := time.Now()
	if s.verified.match(hash, []byte(secret), now) {
		return nil
	}
	if err := s.compare([]byte(hash), []byte(secret)); err != nil {
		return err
	}
	s.verified.remember(hash, []byte(secret), now)
	return nil
}
