package projects

import "github.com/trove-ml/trove/internal/query"

// Schema is how project fields map to SQL.
var Schema = &query.Schema{
	Entity: "project",
	Columns: map[string]query.Column{
		"id": {Name: "id"}, "company": {Name: "company"}, "name": {Name: "name"},
		"basename": {Name: "basename"}, "parent": {Name: "parent"}, "user": {Name: "user_id"},
		"created": {Name: "created", Kind: query.TimeMillis}, "last_update": {Name: "last_update", Kind: query.TimeMillis},
		"tags": {Name: "tags", Kind: query.JSONArray}, "system_tags": {Name: "system_tags", Kind: query.JSONArray},
	},
	Fields: []string{"id", "company", "user", "name", "basename", "description", "created", "tags", "system_tags",
		"last_update", "featured", "default_output_destination", "parent", "path", "company_origin", "logo_url",
		"logo_blob", "stats", "sub_projects", "own_tasks", "own_models", "hidden", "dataset_stats"},
	Patterns:       []string{"name", "basename", "description"},
	Lists:          []string{"id", "tags", "system_tags", "parent", "path", "user", "company"},
	ArrayFields:    []string{"path"},
	Ranges:         []string{"last_update"},
	Dates:          []string{"created"},
	SearchText:     []string{"name", "id", "description"},
	Hidden:         []string{"logo_blob", "path", "company_origin"},
	Refs:           []string{"parent", "user", "company"},
	DateTimeFields: []string{"created", "last_update"},
}

// refTables says where *_ex reads find names of referenced records.
var refTables = query.RefTables{"parent": "projects", "user": "users", "company": "companies"}
