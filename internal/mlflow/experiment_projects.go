package mlflow

import (
	"context"
	"errors"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/projects"
	"github.com/trove-ml/trove/internal/store"
)

// The project behind an experiment id, the Default experiment's included.

// DefaultID and DefaultName are MLflow's Default experiment: the root
// project "Default" of the company, made on first use.
const (
	DefaultID   = domain.MLflowDefaultExperimentID
	DefaultName = domain.MLflowDefaultExperimentName
)

// defaultExperiment is the Default experiment before its project is made.
func defaultExperiment(env *domain.Env) *Experiment {
	now := env.Time().Millis()
	return &Experiment{ID: DefaultID, Name: DefaultName, ArtifactLocation: "mlflow-artifacts:/0", LifecycleStage: Active,
		Created: now, LastUpdate: now, Tags: map[string]string{}}
}

// loadProject reads the project of experiment id (the Default one made
// when create and absent).
func loadProject(ctx context.Context, env *domain.Env, q store.Querier, company, user, id string, create, lock bool) (*store.Project, error) {
	if id == DefaultID {
		p, err := env.DB.ProjectByName(ctx, q, DefaultName, company)
		if err == nil {
			return p, nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
		if !create {
			return nil, nil
		}
		return projects.EnsureByName(ctx, env, q, company, user, DefaultName)
	}
	if id == "" {
		return nil, apierr.MLflowInvalidParameter("Missing value for required parameter 'experiment_id'.")
	}
	get := env.DB.Projects().Get
	if lock {
		get = env.DB.Projects().GetForUpdate
	}
	p, err := get(ctx, q, id, company)
	if errors.Is(err, store.ErrNotFound) {
		return nil, apierr.MLflowNotFound("No Experiment with id=%s exists", id)
	}
	return p, err
}

// ensureDefaultExperiment makes the company's Default experiment when it
// is absent: it always exists, as in MLflow, so searches list it.
func ensureDefaultExperiment(ctx context.Context, env *domain.Env, company string) error {
	_, err := env.DB.ProjectByName(ctx, env.DB.Read(), DefaultName, company)
	if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	return env.DB.Tx(ctx, func(q store.Querier) error {
		p, err := projects.EnsureByName(ctx, env, q, company, "", DefaultName)
		if err != nil {
			return err
		}
		p.MLflow = &store.MLflowExperiment{Name: DefaultName}
		return env.DB.Projects().Update(ctx, q, p)
	})
}

// experimentProject is the project of an experiment id a search names.
type experimentProject struct {
	ExperimentID string
	*store.Project
}

// experimentProjects reads the projects of experiment ids, in order,
// passing over ids with no experiment (a search of them finds nothing)
// and the Default one when it is not made yet.
func experimentProjects(ctx context.Context, env *domain.Env, q store.Querier, company string, ids []string) ([]experimentProject, error) {
	var out []experimentProject
	for _, e := range ids {
		p, err := loadProject(ctx, env, q, company, "", e, false, false)
		var ae *apierr.Error
		if errors.As(err, &ae) && ae.Code == 404 {
			continue
		}
		if err != nil {
			return nil, err
		}
		if p != nil {
			out = append(out, experimentProject{ExperimentID: e, Project: p})
		}
	}
	return out, nil
}
