package auth

import (
	"context"
	"sync"
	"time"
)

// revocationTTL is how long a "not revoked" answer is trusted. A logout in
// this process takes effect at once; one in another Trove process on the
// same database as soon as its notice arrives (internal/cluster), and
// within this time at worst.
const revocationTTL = 5 * time.Second

// RevocationTTL is the longest a change reaches another process's live
// tokens: a logout it did not hear, a change of role, a revoked key or a
// deleted user (principal.go).
const RevocationTTL = revocationTTL

type revocationEntry struct {
	revoked bool
	checked time.Time
}

// revocations caches session revocation lookups (a store query per call
// would dominate small calls).
type revocations struct {
	mu sync.Mutex
	m  map[string]revocationEntry
}

func (r *revocations) get(id string, now time.Time) (bool, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.m[id]
	if !ok || (!e.revoked && now.Sub(e.checked) > revocationTTL) {
		return false, false
	}
	return e.revoked, true
}

func (r *revocations) put(id string, revoked bool, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil || len(r.m) > 100000 {
		r.m = map[string]revocationEntry{}
	}
	r.m[id] = revocationEntry{revoked, now}
}

// sessionRevoked answers from the cache or the store.
func (s *Service) sessionRevoked(ctx context.Context, id string) (bool, error) {
	now := s.env.Now()
	if v, ok := s.revoked.get(id, now); ok {
		return v, nil
	}
	v, err := s.env.DB.SessionRevoked(ctx, id)
	if err != nil {
		return false, err
	}
	s.revoked.put(id, v, now)
	return v, nil
}
