package auth

// RevocationTTL exposes how long a "not revoked" answer is trusted.
const RevocationTTL = revocationTTL
