package queues

import "github.com/trove-ml/trove/internal/query"

// Schema is how queue fields map to SQL. Entries and workers are not
// stored in the queue document: reads add them after the list query.
var Schema = &query.Schema{
	Entity: "queue",
	Columns: map[string]query.Column{
		"id": {Name: "id"}, "company": {Name: "company"}, "name": {Name: "name"},
		"created": {Name: "created", Kind: query.TimeMillis}, "last_update": {Name: "last_update", Kind: query.TimeMillis},
		"tags": {Name: "tags", Kind: query.JSONArray}, "system_tags": {Name: "system_tags", Kind: query.JSONArray},
	},
	Fields: []string{"id", "company", "user", "name", "display_name", "created", "last_update", "tags", "system_tags",
		"entries", "metadata", "workers"},
	Patterns:       []string{"name", "display_name"},
	Lists:          []string{"id", "tags", "system_tags"},
	ListPrefixes:   []string{"metadata."},
	Dates:          []string{"created", "last_update"},
	SearchText:     []string{"name", "id"},
	Refs:           []string{"company"},
	DateTimeFields: []string{"created", "last_update"},
}
