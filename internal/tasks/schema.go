package tasks

import "github.com/trove-ml/trove/internal/query"

// Schema is how task fields map to SQL for the list queries.
var Schema = &query.Schema{
	Entity: "task",
	Columns: map[string]query.Column{
		"id": {Name: "id"}, "company": {Name: "company"}, "name": {Name: "name"}, "project": {Name: "project"},
		"parent": {Name: "parent"}, "user": {Name: "user_id"}, "type": {Name: "type"}, "status": {Name: "status"},
		"created": {Name: "created", Kind: query.TimeMillis, NotNull: true}, "last_update": {Name: "last_update", Kind: query.TimeMillis, NotNull: true},
		"status_changed": {Name: "status_changed", Kind: query.TimeMillis}, "last_change": {Name: "last_change", Kind: query.TimeMillis},
		"started": {Name: "started", Kind: query.TimeMillis},
		"tags":    {Name: "tags", Kind: query.JSONArray}, "system_tags": {Name: "system_tags", Kind: query.JSONArray},
	},
	Fields: []string{"id", "company", "user", "name", "type", "status", "status_reason", "status_message", "status_changed",
		"comment", "report", "created", "started", "completed", "published", "active_duration", "parent", "project", "output",
		"execution", "script", "tags", "system_tags", "last_update", "last_change", "last_changed_by", "last_iteration",
		"last_metrics", "metric_stats", "hyperparams", "configuration", "runtime", "models", "container", "report_assets",
		"last_worker", "last_worker_report", "enqueue_status", "company_origin", "unique_metrics"},
	Patterns:         []string{"name", "comment", "report"},
	Lists:            []string{"id", "user", "tags", "system_tags", "type", "status", "project", "parent", "execution.queue", "models.input.model", "company"},
	ListPrefixes:     []string{"hyperparams."},
	ObjectArrays:     map[string][2]string{"models.input.model": {"models.input", "model"}},
	CaseInsensitive:  []string{"type"},
	Ranges:           []string{"created", "started", "active_duration", "last_iteration"},
	RangePrefixes:    []string{"last_metrics."},
	Dates:            []string{"status_changed", "last_update", "last_change"},
	EqualityPrefixes: []string{"runtime."},
	NumericPrefixes:  []string{"hyperparams.", "last_metrics.", "execution.parameters."},
	SearchText:       []string{"name", "id", "comment", "report", "script.repository", "script.entry_point"},
	Hidden:           []string{"unique_metrics", "company_origin", "enqueue_status"},
	Refs:             []string{"project", "parent", "user", "company", "execution.queue", "models.input.model", "models.output.model"},
	Aliases: map[string]string{"execution.parameters.": "hyperparams.Args.", "execution.model_desc": "configuration",
		"execution.docker_cmd": "container"},
	DateTimeFields: []string{"created", "started", "completed", "published", "last_update", "last_change", "status_changed"},
}

// RefTables says where *_ex reads find the records referenced by tasks.
var RefTables = query.RefTables{"project": "projects", "parent": "tasks", "user": "users", "company": "companies",
	"execution.queue": "queues", "models.input.model": "models", "models.output.model": "models"}
