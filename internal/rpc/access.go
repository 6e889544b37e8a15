package rpc

import (
	"bytes"
	"encoding/json"

	"github.com/trove-ml/trove/internal/auth"
)

// Access states who may call an endpoint and whether a call changes
// anything. Every endpoint that looks at credentials states one; the
// server enforces it before the handler runs (no handler checks a role).
type Access struct {
	// Roles may call the endpoint; any other role gets 403/20.
	Roles []string
	// Changes marks an operation that changes something: with only the
	// session cookie it must pass the cross-site gate (httpx.Origins).
	Changes bool
	// SetBy, when set, names a request field: a call that gives it a
	// value (not null) changes something and only SetRoles may make it;
	// a call without it is a read for Roles.
	SetBy    string
	SetRoles []string
}

// The access levels of the endpoint tables.
var (
	// Read: every role reads; nothing changes.
	Read = Access{Roles: auth.Everyone}
	// Own: every role; changes only the caller's own session or
	// preferences.
	Own = Access{Roles: auth.Everyone, Changes: true}
	// Write: the roles that change records.
	Write = Access{Roles: auth.Writers, Changes: true}
	// Admin: company administration, changes.
	Admin = Access{Roles: auth.Privileged, Changes: true}
	// AdminRead: company administration, reads.
	AdminRead = Access{Roles: auth.Privileged}
	// Root: the server's own roles (system, root).
	Root = Access{Roles: auth.Roots, Changes: true}
)

// ReadOrSet is an access where every role reads and a call setting field
// is a change that only roles may make (server.report_stats_option).
func ReadOrSet(field string, roles []string) Access {
	return Access{Roles: auth.Everyone, SetBy: field, SetRoles: roles}
}

// stated says whether the access names any role.
func (a Access) stated() bool { return len(a.Roles) > 0 }

// sets says whether the request object gives the SetBy field a value.
func (a Access) sets(obj []byte) bool {
	if a.SetBy == "" {
		return false
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(obj, &fields) != nil {
		return true // not an object: count it as a change
	}
	v, ok := fields[a.SetBy]
	return ok && !bytes.Equal(bytes.TrimSpace(v), []byte("null"))
}
