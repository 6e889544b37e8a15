// Package users holds the rules of users.*: reading users of the caller's
// company, profile updates, deletion, who is active in projects, and each
// user's web app preferences.
package users

import "github.com/trove-ml/trove/internal/query"

// Schema is how user fields map to SQL for users.get_all(_ex).
var Schema = &query.Schema{
	Entity: "user",
	Columns: map[string]query.Column{
		"id": {Name: "id"}, "company": {Name: "company"}, "name": {Name: "name"}, "role": {Name: "role"},
		"created": {Name: "created", Kind: query.TimeMillis},
	},
	Fields: []string{"id", "name", "given_name", "family_name", "avatar", "company", "role", "providers", "created", "email",
		"created_in_version"},
	// Role and email are the auth record's in the reference: listed only
	// when asked for.
	Hidden:         []string{"role", "email"},
	Patterns:       []string{"name"},
	Lists:          []string{"id", "role"},
	Dates:          []string{"created"},
	SearchText:     []string{"name", "id"},
	Refs:           []string{"company"},
	DateTimeFields: []string{"created"},
}

var refTables = query.RefTables{"company": "companies"}
