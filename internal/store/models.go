package store

import "github.com/trove-ml/trove/internal/jsonx"

// Model is a stored model document, in the API's shape.
type Model struct {
	ID            string                               `json:"id"`
	Company       string                               `json:"company"`
	User          string                               `json:"user"`
	Name          string                               `json:"name"`
	Created       jsonx.Time                           `json:"created"`
	Tags          []string                             `json:"tags"`
	SystemTags    []string                             `json:"system_tags"`
	URI           string                               `json:"uri"`
	Design        map[string]any                       `json:"design"`
	Labels        map[string]int64                     `json:"labels"`
	Ready         bool                                 `json:"ready"`
	LastUpdate    jsonx.Time                           `json:"last_update"`
	LastChange    jsonx.Time                           `json:"last_change"`
	LastChangedBy string                               `json:"last_changed_by"`
	Metadata      map[string]*MetadataItem             `json:"metadata"`
	LastIteration int64                                `json:"last_iteration"`
	LastMetrics   map[string]map[string]*MetricSummary `json:"last_metrics"`
	Parent        string                               `json:"parent,omitempty"`
	Project       string                               `json:"project,omitempty"`
	Task          string                               `json:"task,omitempty"`
	Comment       *string                              `json:"comment,omitempty"`
	Framework     *string                              `json:"framework,omitempty"`
	UICache       map[string]any                       `json:"ui_cache,omitempty"`
	CompanyOrigin string                               `json:"company_origin,omitempty"`
}

// MetadataItem is one keyed metadata entry (models and queues).
type MetadataItem struct {
	Key   string `json:"key"`
	Type  string `json:"type"`
	Value string `json:"value"`
}

// RecordID implements Record.
func (m *Model) RecordID() string { return m.ID }

// ColumnValues implements Record.
func (m *Model) ColumnValues() []any {
	var fw any
	if m.Framework != nil {
		fw = *m.Framework
	}
	return []any{m.Company, m.Name, nullable(m.Project), nullable(m.Task), m.User, fw, m.Ready, nullable(m.URI),
		m.Created.Millis(), m.LastUpdate.Millis(), JSONArray(m.Tags), JSONArray(m.SystemTags)}
}

// Models is the models table.
func (db *DB) Models() *Table[Model, *Model] {
	return &Table[Model, *Model]{DB: db, Name: "models",
		Cols: []string{"company", "name", "project", "task", "user_id", "framework", "ready", "uri", "created", "last_update", "tags", "system_tags"}}
}
