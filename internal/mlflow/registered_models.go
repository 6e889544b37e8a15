package mlflow

import (
	"context"
	"errors"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// MLflow's model registry (issue 38): registered models and their
// numbered versions, with stages, aliases and tags, per company. They are
// registry records of their own (store: mlflow_registered_models,
// mlflow_model_versions); a version names what it was made from (a run,
// a logged model, which is a Trove model, and the source URI).
//
// This file: registered models themselves (create, read, rename,
// describe, tag, delete).

// RegisteredModel is a registered model as MLflow answers it.
type RegisteredModel struct {
	*store.RegisteredModel
	// Latest is the newest version of each stage.
	Latest []*store.ModelVersion
}

func checkModelName(name string) error {
	if strings.TrimSpace(name) == "" {
		return apierr.MLflowInvalidParameter("Registered model name cannot be empty.")
	}
	if len(name) > MaxNameLen {
		return apierr.MLflowInvalidParameter("Registered model name '%s' had length %d, which exceeded length limit of %d", name[:50]+"...", len(name), MaxNameLen)
	}
	return nil
}

func modelNotFound(name string) error {
	return apierr.MLflowNotFound("Registered Model with name=%s not found", name)
}

// loadModel reads a registered model in q (locked on PostgreSQL when
// lock).
func loadModel(ctx context.Context, env *domain.Env, q store.Querier, company, name string, lock bool) (*store.RegisteredModel, error) {
	if err := checkModelName(name); err != nil {
		return nil, err
	}
	m, err := env.DB.GetRegisteredModel(ctx, q, company, name, lock)
	if errors.Is(err, store.ErrNotFound) {
		return nil, modelNotFound(name)
	}
	return m, err
}

// withModel runs edit on a registered model in a transaction and saves
// it under its (possibly new) name.
func withModel(ctx context.Context, env *domain.Env, company, name string, edit func(q store.Querier, m *store.RegisteredModel) error) (*store.RegisteredModel, error) {
	var out *store.RegisteredModel
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		m, err := loadModel(ctx, env, q, company, name, true)
		if err != nil {
			return err
		}
		if err := edit(q, m); err != nil {
			return err
		}
		m.LastUpdate = env.Time().Millis()
		if err := env.DB.UpdateRegisteredModel(ctx, q, company, name, m); err != nil {
			if errors.Is(err, store.ErrDuplicate) {
				return apierr.MLflowAlreadyExists("Registered Model (name=%s) already exists.", m.Name)
			}
			return err
		}
		out = m
		return nil
	})
	return out, err
}

// CreateRegisteredModel registers a new model name.
func CreateRegisteredModel(ctx context.Context, env *domain.Env, company, user, name, description string, tags map[string]string) (*RegisteredModel, error) {
	if err := checkModelName(name); err != nil {
		return nil, err
	}
	for k, v := range tags {
		if err := CheckTag(k, v); err != nil {
			return nil, err
		}
	}
	if len(description) > MaxDescriptionLen {
		return nil, apierr.MLflowInvalidParameter("Description had length %d, which exceeded length limit of %d", len(description), MaxDescriptionLen)
	}
	now := env.Time().Millis()
	m := &store.RegisteredModel{Name: name, Created: now, LastUpdate: now, User: user, Description: description, Tags: copyTags(tags), NextVersion: 1}
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		return env.DB.InsertRegisteredModel(ctx, q, company, m)
	})
	if errors.Is(err, store.ErrDuplicate) {
		return nil, apierr.MLflowAlreadyExists("Registered Model (name=%s) already exists.", name)
	}
	if err != nil {
		return nil, err
	}
	return &RegisteredModel{RegisteredModel: m}, nil
}

// latest is the newest version of each stage among vs, in stage order.
func latest(vs []*store.ModelVersion, stages []string) []*store.ModelVersion {
	best := map[string]*store.ModelVersion{}
	for _, v := range vs {
		if b := best[v.Stage]; b == nil || v.Version > b.Version {
			best[v.Stage] = v
		}
	}
	if len(stages) == 0 {
		stages = []string{StageNone, StageStaging, StageProduction, StageArchived}
	}
	var out []*store.ModelVersion
	for _, st := range stages {
		if v := best[st]; v != nil {
			out = append(out, v)
		}
	}
	return out
}

// GetRegisteredModel reads a registered model with its latest versions.
func GetRegisteredModel(ctx context.Context, env *domain.Env, company, name string) (*RegisteredModel, error) {
	q := env.DB.Read()
	m, err := loadModel(ctx, env, q, company, name, false)
	if err != nil {
		return nil, err
	}
	vs, err := env.DB.ModelVersions(ctx, q, company, name)
	if err != nil {
		return nil, err
	}
	return &RegisteredModel{RegisteredModel: m, Latest: latest(vs, nil)}, nil
}

// RenameRegisteredModel renames a model and its versions.
func RenameRegisteredModel(ctx context.Context, env *domain.Env, company, name, newName string) (*RegisteredModel, error) {
	if err := checkModelName(newName); err != nil {
		return nil, err
	}
	m, err := withModel(ctx, env, company, name, func(q store.Querier, m *store.RegisteredModel) error {
		if newName == name {
			return nil
		}
		if _, err := env.DB.GetRegisteredModel(ctx, q, company, newName, false); err == nil {
			return apierr.MLflowAlreadyExists("Registered Model (name=%s) already exists.", newName)
		} else if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		m.Name = newName
		return env.DB.RenameModelVersions(ctx, q, company, name, newName)
	})
	if err != nil {
		return nil, err
	}
	return GetRegisteredModel(ctx, env, company, m.Name)
}

// UpdateRegisteredModel changes a model's description.
func UpdateRegisteredModel(ctx context.Context, env *domain.Env, company, name string, description *string) (*RegisteredModel, error) {
	if description != nil && len(*description) > MaxDescriptionLen {
		return nil, apierr.MLflowInvalidParameter("Description had length %d, which exceeded length limit of %d", len(*description), MaxDescriptionLen)
	}
	if _, err := withModel(ctx, env, company, name, func(_ store.Querier, m *store.RegisteredModel) error {
		if description != nil {
			m.Description = *description
		}
		return nil
	}); err != nil {
		return nil, err
	}
	return GetRegisteredModel(ctx, env, company, name)
}

// DeleteRegisteredModel removes a model and all its versions.
func DeleteRegisteredModel(ctx context.Context, env *domain.Env, company, name string) error {
	return env.DB.Tx(ctx, func(q store.Querier) error {
		if _, err := loadModel(ctx, env, q, company, name, true); err != nil {
			return err
		}
		return env.DB.DeleteRegisteredModel(ctx, q, company, name)
	})
}

// SetRegisteredModelTag sets (or with del removes) a model's tag.
func SetRegisteredModelTag(ctx context.Context, env *domain.Env, company, name, key, value string, del bool) error {
	if err := CheckTag(key, value); err != nil {
		return err
	}
	_, err := withModel(ctx, env, company, name, func(_ store.Querier, m *store.RegisteredModel) error {
		m.Tags = putTag(m.Tags, key, value, del)
		return nil
	})
	return err
}
