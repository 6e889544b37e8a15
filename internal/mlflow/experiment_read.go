package mlflow

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// An experiment is a Trove project; this file converts one and reads one.

// Lifecycle stages.
const (
	Active  = "active"
	Deleted = "deleted"
)

// tagArchived marks a deleted experiment (project) or run (task).
const tagArchived = "archived"

// tagHidden marks projects the ClearML UI hides (datasets, pipelines).
const tagHidden = "hidden"

// Experiment is an experiment as MLflow answers it.
type Experiment struct {
	ID               string
	Name             string
	ArtifactLocation string
	LifecycleStage   string
	Created          int64
	LastUpdate       int64
	Tags             map[string]string
}

// ExperimentID is the MLflow id of a project.
func ExperimentID(p *store.Project) string {
	return domain.MLflowExperimentID(p.ID, p.Parent, p.Name)
}

// ExperimentOf converts a project.
func ExperimentOf(p *store.Project) *Experiment {
	e := &Experiment{ID: ExperimentID(p), Name: p.Name, LifecycleStage: Active,
		Created: p.Created.Millis(), LastUpdate: p.LastUpdate.Millis(), Tags: map[string]string{}}
	if domain.HasTag(p.SystemTags, tagArchived) {
		e.LifecycleStage = Deleted
	}
	if m := p.MLflow; m != nil {
		if m.Name != "" {
			e.Name = m.Name
		}
		e.ArtifactLocation = m.ArtifactLocation
		for k, v := range m.Tags {
			e.Tags[k] = v
		}
	}
	if e.ArtifactLocation == "" {
		e.ArtifactLocation = "mlflow-artifacts:/" + e.ID
	}
	if p.Description != "" {
		if _, ok := e.Tags["mlflow.note.content"]; !ok {
			e.Tags["mlflow.note.content"] = p.Description
		}
	}
	return e
}

// GetExperiment reads experiment id.
func GetExperiment(ctx context.Context, env *domain.Env, company, id string) (*Experiment, error) {
	p, err := loadProject(ctx, env, env.DB.Read(), company, "", id, false, false)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return defaultExperiment(env), nil
	}
	return ExperimentOf(p), nil
}

// GetExperimentByName reads the experiment named name.
func GetExperimentByName(ctx context.Context, env *domain.Env, company, name string) (*Experiment, error) {
	found, err := env.DB.ExperimentsByName(ctx, env.DB.Read(), company, name, projectName(name))
	if err != nil {
		return nil, err
	}
	if len(found) == 0 {
		if name == DefaultName {
			return defaultExperiment(env), nil
		}
		return nil, apierr.MLflowNotFound("Could not find experiment with name '%s'", name)
	}
	return ExperimentOf(found[0]), nil
}
