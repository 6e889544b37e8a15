package mlflow

import (
	"context"
	"errors"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/projects"
	"github.com/trove-ml/trove/internal/store"
)

// Creating and changing experiments: create, rename, delete and
// restore, tags.

// holderFolder holds the projects of experiments whose names the project
// rules refuse.
const holderFolder = "MLflow"

// projectName is the project name that holds experiment name: the name
// itself when the project rules take it, else under "MLflow/".
func projectName(name string) string {
	segs := store.SplitProjectName(name)
	full := strings.Join(segs, "/")
	ok := len(segs) > 0 && len(segs) <= projects.MaxDepth && len([]rune(full)) >= projects.MinBasenameLength
	if ok {
		if base := segs[len(segs)-1]; len([]rune(base)) < projects.MinBasenameLength {
			ok = false
		}
	}
	if ok {
		return full
	}
	return holderFolder + "/" + strings.ReplaceAll(strings.TrimSpace(name), "/", "_") + "___"[:max(0, 3-len([]rune(strings.TrimSpace(name))))]
}

func checkName(name string) error {
	if strings.TrimSpace(name) == "" {
		return apierr.MLflowInvalidParameter("Invalid experiment name: '%s'", name)
	}
	if len(name) > MaxNameLen {
		return apierr.MLflowInvalidParameter("Experiment name '%s' had length %d, which exceeded length limit of %d", name[:50]+"...", len(name), MaxNameLen)
	}
	return nil
}

// CreateExperiment creates an experiment (a project) and returns its id.
func CreateExperiment(ctx context.Context, env *domain.Env, company, user, name, artifactLocation string, tags map[string]string) (string, error) {
	if err := checkName(name); err != nil {
		return "", err
	}
	for k, v := range tags {
		if err := CheckTag(k, v); err != nil {
			return "", err
		}
	}
	var id string
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		pname := projectName(name)
		found, err := env.DB.ExperimentsByName(ctx, q, company, name, pname)
		if err != nil {
			return err
		}
		if len(found) > 0 {
			return apierr.MLflowAlreadyExists("Experiment '%s' already exists.", name)
		}
		if _, err := env.DB.ProjectByName(ctx, q, pname, company); err == nil {
			return apierr.MLflowAlreadyExists("Experiment '%s' already exists (a project holds its name).", name)
		} else if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		p, err := projects.EnsureByName(ctx, env, q, company, user, pname)
		if err != nil {
			return err
		}
		p.MLflow = &store.MLflowExperiment{Name: name, ArtifactLocation: artifactLocation, Tags: copyTags(tags)}
		id = ExperimentID(p)
		return env.DB.Projects().Update(ctx, q, p)
	})
	return id, err
}

// editProject runs edit on experiment id's project in a transaction.
func editProject(ctx context.Context, env *domain.Env, company, user, id string, edit func(q store.Querier, p *store.Project) error) error {
	return env.DB.Tx(ctx, func(q store.Querier) error {
		p, err := loadProject(ctx, env, q, company, user, id, true, true)
		if err != nil {
			return err
		}
		if err := edit(q, p); err != nil {
			return err
		}
		p.LastUpdate = env.Time()
		return env.DB.Projects().Update(ctx, q, p)
	})
}

// RenameExperiment gives experiment id a new name.
func RenameExperiment(ctx context.Context, env *domain.Env, company, user, id, name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	if id == DefaultID {
		return apierr.MLflowInvalidParameter("The Default experiment (id 0) cannot be renamed")
	}
	found, err := env.DB.ExperimentsByName(ctx, env.DB.Read(), company, name, projectName(name))
	if err != nil {
		return err
	}
	for _, p := range found {
		if p.ID != id {
			return apierr.MLflowAlreadyExists("Experiment '%s' already exists.", name)
		}
	}
	p, err := loadProject(ctx, env, env.DB.Read(), company, user, id, false, false)
	if err != nil {
		return err
	}
	if domain.HasTag(p.SystemTags, tagArchived) {
		return apierr.MLflowInvalidParameter("Cannot rename a non-active experiment.")
	}
	pname := projectName(name)
	if pname != p.Name {
		oldSegs, newSegs := store.SplitProjectName(p.Name), store.SplitProjectName(pname)
		// A project rename keeps its parent; a name elsewhere keeps the
		// project name and answers the new name from the document.
		if strings.Join(oldSegs[:len(oldSegs)-1], "/") == strings.Join(newSegs[:len(newSegs)-1], "/") {
			if _, err := projects.Update(ctx, env, company, id, projects.Patch{Name: &pname}); err != nil {
				return err
			}
		}
	}
	return editProject(ctx, env, company, user, id, func(_ store.Querier, p *store.Project) error {
		if p.MLflow == nil {
			p.MLflow = &store.MLflowExperiment{}
		}
		p.MLflow.Name = name
		return nil
	})
}

// SetExperimentLifecycle deletes (archives) or restores experiment id.
func SetExperimentLifecycle(ctx context.Context, env *domain.Env, company, user, id string, deleted bool) error {
	if id == DefaultID && deleted {
		return apierr.MLflowInvalidParameter("Cannot delete the default experiment '0'. This is an internally reserved experiment.")
	}
	return editProject(ctx, env, company, user, id, func(_ store.Querier, p *store.Project) error {
		p.SystemTags = domain.WithoutTag(p.SystemTags, tagArchived)
		if deleted {
			p.SystemTags = domain.SortedTags(append(p.SystemTags, tagArchived))
		}
		return nil
	})
}

// SetExperimentTag sets (or with del, removes) one tag of experiment id.
func SetExperimentTag(ctx context.Context, env *domain.Env, company, user, id, key, value string, del bool) error {
	if err := CheckTag(key, value); err != nil {
		return err
	}
	return editProject(ctx, env, company, user, id, func(_ store.Querier, p *store.Project) error {
		if domain.HasTag(p.SystemTags, tagArchived) {
			return apierr.MLflowInvalidParameter("The experiment %s must be in the 'active' state. Current state is deleted.", id)
		}
		if p.MLflow == nil {
			p.MLflow = &store.MLflowExperiment{}
		}
		if _, ok := p.MLflow.Tags[key]; del && !ok {
			return apierr.MLflowNotFound("No tag with name: %s in experiment with id %s", key, id)
		}
		p.MLflow.Tags = putTag(p.MLflow.Tags, key, value, del)
		return nil
	})
}
