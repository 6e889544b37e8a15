package models

import (
	"context"
	"unicode/utf8"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/store"
)

// minNameLen is the shortest model name create accepts (as the reference's store).
const minNameLen = 3

// CreateInput is a new model of models.create.
type CreateInput struct {
	Actor
	Name, URI        string
	Comment          *string
	Design           map[string]any
	Framework        *string
	Labels           map[string]int64
	Parent, Project  string
	Task             string
	Public, Ready    bool
	Tags, SystemTags []string
	UICache          map[string]any
	Metadata         map[string]*store.MetadataItem
}

// Create adds a model and returns its id. Project, task and parent must
// be ones the caller may use; a public model remembers its origin.
func Create(ctx context.Context, env *domain.Env, in CreateInput) (string, error) {
	name, err := cleanName(in.Name)
	if err != nil {
		return "", err
	}
	if utf8.RuneCountInString(name) < minNameLen {
		return "", apierr.DataValidation("model name must be at least %d characters: name=%s", minNameLen, name)
	}
	now := env.Time()
	m := &store.Model{ID: ids.New(), Company: in.Company, User: in.User, Name: name, Created: now,
		LastUpdate: now, LastChange: now, LastChangedBy: in.User, URI: in.URI, Comment: in.Comment,
		Design: in.Design, Framework: in.Framework, Labels: in.Labels, Parent: in.Parent, Project: in.Project,
		Ready: in.Ready, Task: in.Task, UICache: in.UICache, Metadata: in.Metadata,
		Tags: domain.SortedTags(in.Tags), SystemTags: domain.SortedTags(in.SystemTags)}
	if in.Public {
		// Public from birth; the origin lets its company make it private.
		m.Company, m.CompanyOrigin = "", in.Company
	}
	m.Normalize()
	err = env.DB.Tx(ctx, func(q store.Querier) error {
		if m.Project != "" {
			if err := checkProject(ctx, env, q, m.Project, m.Company); err != nil {
				return err
			}
		}
		if m.Task != "" {
			if err := checkTask(ctx, env, q, in.Company, m.Task); err != nil {
				return err
			}
		}
		if m.Parent != "" {
			if err := checkParent(ctx, env, q, in.Company, m.Parent); err != nil {
				return err
			}
		}
		return env.DB.Models().Insert(ctx, q, m)
	})
	if err != nil {
		return "", err
	}
	return m.ID, nil
}
