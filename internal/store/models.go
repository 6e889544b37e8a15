package store

import (
	"context"

	"github.com/trove-ml/trove/internal/jsonx"
)

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
	UICache       map[string]any                       `json:"ui_cache"`
	CompanyOrigin string                               `json:"company_origin,omitempty"`
	// MLflow is what a logged model made through the MLflow API has
	// beside the model's own fields (mlflow_logged_models.go).
	MLflow *MLflowLoggedModel `json:"mlflow,omitempty"`
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
		m.Created.Millis(), m.LastUpdate.Millis(), JSONArray(m.Tags), JSONArray(m.SystemTags), m.LastChange.Millis()}
}

// Models is the models table (last_change is added by migration 0020).
func (db *DB) Models() *Table[Model, *Model] {
	return &Table[Model, *Model]{DB: db, Name: "models",
		Cols: []string{"company", "name", "project", "task", "user_id", "framework", "ready", "uri", "created", "last_update", "tags", "system_tags", "last_change"}}
}

// Normalize fills the defaults every stored model has (empty maps and
// lists rather than null), so reads return the reference's shape.
func (m *Model) Normalize() {
	if m.Tags == nil {
		m.Tags = []string{}
	}
	if m.SystemTags == nil {
		m.SystemTags = []string{}
	}
	if m.Design == nil {
		m.Design = map[string]any{}
	}
	if m.Labels == nil {
		m.Labels = map[string]int64{}
	}
	if m.Metadata == nil {
		m.Metadata = map[string]*MetadataItem{}
	}
	if m.LastMetrics == nil {
		m.LastMetrics = map[string]map[string]*MetricSummary{}
	}
	if m.UICache == nil {
		m.UICache = map[string]any{}
	}
}

// TasksUsingModel returns the tasks (of any company) that list the model
// among their input models, locked for update inside a transaction.
func (db *DB) TasksUsingModel(ctx context.Context, q Querier, modelID string) ([]*Task, error) {
	cond, args := db.D.InputModelCond(modelID)
	return db.Tasks().Select(ctx, q, cond+db.D.ForUpdate(), args...)
}

// TaskIDsUsingModel lists the ids of the tasks (of any company) that use
// the model as an input model, except the task except ("" for none). It
// reads through the same index as TasksUsingModel and locks nothing.
func (db *DB) TaskIDsUsingModel(ctx context.Context, q Querier, modelID, except string) ([]string, error) {
	cond, args := db.D.InputModelCond(modelID)
	return IDs(ctx, q, "SELECT id FROM tasks WHERE id <> ? AND "+cond, append([]any{except}, args...)...)
}

// ModelsOfTask lists the models whose creating task is the task.
func (db *DB) ModelsOfTask(ctx context.Context, q Querier, task string) ([]*Model, error) {
	return db.Models().Select(ctx, q, "task = ?", task)
}

// ModelURIs lists the non-empty URIs of the models.
func (db *DB) ModelURIs(ctx context.Context, q Querier, ids []string) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return IDs(ctx, q, "SELECT uri FROM models WHERE id IN ("+Placeholders(len(ids))+") AND uri IS NOT NULL AND uri <> ''", Args(ids)...)
}

// ModelIDsInProjects lists the ids of the models in the projects.
func (db *DB) ModelIDsInProjects(ctx context.Context, q Querier, projects []string) ([]string, error) {
	if len(projects) == 0 {
		return nil, nil
	}
	return IDs(ctx, q, "SELECT id FROM models WHERE project IN ("+Placeholders(len(projects))+")", Args(projects)...)
}

// DeleteModels deletes the model rows only (their events are the models
// domain's to delete first) and returns how many it deleted.
func (db *DB) DeleteModels(ctx context.Context, q Querier, ids []string) (int, error) {
	return deleteByID(ctx, q, "models", ids)
}
