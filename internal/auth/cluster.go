package auth

// Several Trove processes may serve one database (internal/cluster). A
// logout made by another process reaches this one through these two
// methods, which internal/cluster calls from the database's messages.

// MarkRevoked records that another process logged session out.
func (s *Service) MarkRevoked(session string) {
	s.revoked.put(session, true, s.env.Now())
}

// ForgetRevocationChecks drops every cached revocation answer, so the
// next call of each session asks the store: for when logouts of other
// processes may have been missed (no connection to hear them).
func (s *Service) ForgetRevocationChecks() {
	s.revoked.mu.Lock()
	defer s.revoked.mu.Unlock()
	s.revoked.m = nil
}
