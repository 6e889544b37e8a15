package models

import "github.com/trove-ml/trove/internal/query"

// Schema is how model fields map to SQL for get_all, get_all_ex and
// get_by_id_ex (ModelsQuery).
var Schema = &query.Schema{
	Entity: "model",
	Columns: map[string]query.Column{
		"id": {Name: "id"}, "company": {Name: "company"}, "name": {Name: "name"},
		"project": {Name: "project"}, "task": {Name: "task"}, "user": {Name: "user_id"},
		"framework": {Name: "framework"}, "uri": {Name: "uri"}, "ready": {Name: "ready", Kind: query.Bool},
		"created":     {Name: "created", Kind: query.TimeMillis},
		"last_update": {Name: "last_update", Kind: query.TimeMillis},
		"last_change": {Name: "last_change", Kind: query.TimeMillis},
		"tags":        {Name: "tags", Kind: query.JSONArray}, "system_tags": {Name: "system_tags", Kind: query.JSONArray},
	},
	Fields: []string{"id", "company", "user", "name", "created", "tags", "system_tags", "uri", "design", "labels",
		"ready", "last_update", "last_change", "last_changed_by", "metadata", "last_iteration", "last_metrics",
		"parent", "project", "task", "comment", "framework", "ui_cache", "company_origin", "stats", "unique_metrics"},
	Patterns:        []string{"name", "comment"},
	Lists:           []string{"id", "user", "tags", "system_tags", "framework", "uri", "project", "task", "parent"},
	ListPrefixes:    []string{"metadata."},
	CaseInsensitive: []string{"framework"},
	Ranges:          []string{"created", "last_iteration"},
	RangePrefixes:   []string{"last_metrics."},
	Dates:           []string{"last_update", "last_change"},
	Equality:        []string{"ready"},
	NumericPrefixes: []string{"metadata.", "last_metrics."},
	SearchText:      []string{"name", "id", "comment", "parent", "task", "project"},
	Hidden:          []string{"ui_cache", "company_origin", "unique_metrics"},
	Refs:            []string{"project", "task", "parent", "user", "company"},
	DateTimeFields:  []string{"created", "last_update", "last_change"},
}

// refTables says where *_ex reads find the names of referenced records.
var refTables = query.RefTables{"project": "projects", "task": "tasks", "parent": "models", "user": "users", "company": "companies"}
