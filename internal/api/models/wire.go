package models

import (
	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

// model is a model as the API answers it. It is its own type so that the
// stored row can change without changing answers: toWire is the one place
// a stored model becomes an answer (lists and get_by_id pass it through
// wireItems). Metadata items and metric summaries keep their stored shape.
type model struct {
	ID            string                                     `json:"id"`
	Company       string                                     `json:"company"`
	User          string                                     `json:"user"`
	Name          string                                     `json:"name"`
	Created       jsonx.Time                                 `json:"created"`
	Tags          []string                                   `json:"tags"`
	SystemTags    []string                                   `json:"system_tags"`
	URI           string                                     `json:"uri"`
	Design        map[string]any                             `json:"design"`
	Labels        map[string]int64                           `json:"labels"`
	Ready         bool                                       `json:"ready"`
	LastUpdate    jsonx.Time                                 `json:"last_update"`
	LastChange    jsonx.Time                                 `json:"last_change"`
	LastChangedBy string                                     `json:"last_changed_by"`
	Metadata      map[string]*store.MetadataItem             `json:"metadata"`
	LastIteration int64                                      `json:"last_iteration"`
	LastMetrics   map[string]map[string]*store.MetricSummary `json:"last_metrics"`
	Parent        string                                     `json:"parent,omitempty"`
	Project       string                                     `json:"project,omitempty"`
	Task          string                                     `json:"task,omitempty"`
	Comment       *string                                    `json:"comment,omitempty"`
	Framework     *string                                    `json:"framework,omitempty"`
	UICache       map[string]any                             `json:"ui_cache"`
	CompanyOrigin string                                     `json:"company_origin,omitempty"`
}

// toWire converts a stored model into its answer.
func toWire(m *store.Model) *model {
	return &model{ID: m.ID, Company: m.Company, User: m.User, Name: m.Name, Created: m.Created, Tags: m.Tags,
		SystemTags: m.SystemTags, URI: m.URI, Design: m.Design, Labels: m.Labels, Ready: m.Ready,
		LastUpdate: m.LastUpdate, LastChange: m.LastChange, LastChangedBy: m.LastChangedBy, Metadata: m.Metadata,
		LastIteration: m.LastIteration, LastMetrics: m.LastMetrics, Parent: m.Parent, Project: m.Project,
		Task: m.Task, Comment: m.Comment, Framework: m.Framework, UICache: m.UICache, CompanyOrigin: m.CompanyOrigin}
}

// wireItems converts the stored documents of a models list.
var wireItems = api.WireItems(toWire)
