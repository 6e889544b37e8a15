package auth

import "time"

// SetClock makes s read the time from now (tests move it to expire tokens
// and age the revocation cache).
func SetClock(s *Service, now func() time.Time) { s.now = now }

// RevocationTTL exposes how long a "not revoked" answer is trusted.
const RevocationTTL = revocationTTL
