// Package auth authenticates callers: access keys checked against bcrypt
// hashes, signed JWT session tokens, and the roles the reference defines.
package auth

// Identity is who a call runs as.
type Identity struct {
	UserID      string
	UserName    string
	CompanyID   string
	CompanyName string
	Role        string
	SessionID   string
	// Ancestors are the sessions of the tokens the call's token was
	// minted from, nearest first; revoking any of them revokes it.
	Ancestors []string
	// Token is the bearer token the call presented, if any.
	Token string
	// ExpiresAt is the token's expiry (unix seconds), 0 when none.
	ExpiresAt int64
	// AccessKey is the key the caller logged in with (directly, or through
	// the tokens its token was minted from); "" for a password login.
	// Revoking the key stops the tokens minted from it.
	AccessKey string
	// TokenGeneration is the user's token generation when the identity
	// was checked; a token carries it and is refused once the user's
	// role has changed since (see principal.go).
	TokenGeneration int64
	// Impersonator is the caller that acts as this user through the
	// Impersonate-As header (nil otherwise); a token minted so carries it
	// and stops when the impersonator's own role, token generation or key
	// changes, or its session is logged out.
	Impersonator *Impersonator
}

// Impersonator is who impersonates, as it was when checked.
type Impersonator struct {
	UserID          string `json:"user"`
	Role            string `json:"role"`
	TokenGeneration int64  `json:"token_generation,omitempty"`
}

// Roles as the reference names them.
const (
	RoleSystem    = "system"
	RoleRoot      = "root"
	RoleAdmin     = "admin"
	RoleSuperuser = "superuser"
	RoleUser      = "user"
	RoleAnnotator = "annotator"
	RoleGuest     = "guest"
)

// ValidRole reports whether r is a known role.
func ValidRole(r string) bool {
	switch r {
	case RoleSystem, RoleRoot, RoleAdmin, RoleSuperuser, RoleUser, RoleAnnotator, RoleGuest:
		return true
	}
	return false
}

// Role sets named by the endpoint tables; docs/security.md says what
// each may do.
var (
	// Everyone is every role: reads, and changes to the caller's own
	// session and preferences.
	Everyone = []string{RoleSystem, RoleRoot, RoleAdmin, RoleSuperuser, RoleUser, RoleAnnotator, RoleGuest}
	// Writers change the company's records (tasks, models, projects,
	// queues, events, reports, workers).
	Writers = []string{RoleSystem, RoleRoot, RoleAdmin, RoleSuperuser, RoleUser}
	// Roots alone grant system or root and act across companies.
	Roots = []string{RoleSystem, RoleRoot}
)

// Privileged is the set of roles allowed to administer users and logins.
var Privileged = []string{RoleSystem, RoleRoot, RoleAdmin}

// IsPrivileged reports whether role administers its company's users.
func IsPrivileged(role string) bool {
	for _, r := range Privileged {
		if r == role {
			return true
		}
	}
	return false
}
