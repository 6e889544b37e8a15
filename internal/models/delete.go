package models

import (
	"context"
	"errors"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

// Delete deletes a company model in its own transaction and then, when
// deleteFiles, the weights file this server stores for it; it returns the
// model's URI. Tasks using it as an input model block without force
// (400/205), and with force point at "__DELETED__<id>" instead. A
// published creating task blocks without force (400/206); with force its
// output entry points at the deleted id and output.error says when; an
// unpublished one just loses the entry.
func Delete(ctx context.Context, env *domain.Env, a Actor, id string, force, deleteFiles bool) (string, error) {
	var uri string
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		var err error
		uri, err = deleteOne(ctx, env, q, a, id, force)
		return err
	})
	if err != nil {
		return "", err
	}
	if deleteFiles {
		env.RemoveFiles(ctx, a.Company, []string{uri})
	}
	return uri, nil
}

func deleteOne(ctx context.Context, env *domain.Env, q store.Querier, a Actor, id string, force bool) (string, error) {
	m, err := LoadWritable(ctx, env, q, a.Company, id)
	if err != nil {
		return "", err
	}
	deletedRef := taskdom.DeletedPrefix + id
	now := env.Time()
	users, err := env.DB.TasksUsingModel(ctx, q, id)
	if err != nil {
		return "", err
	}
	if len(users) > 0 && !force {
		return "", apierr.ModelInUse("as execution model, use force=True to delete").With("num_tasks", len(users))
	}
	var creator *store.Task
	if m.Task != "" {
		creator, err = env.DB.Tasks().GetForUpdate(ctx, q, m.Task)
		if errors.Is(err, store.ErrNotFound) {
			creator, err = nil, nil
		}
		if err != nil {
			return "", err
		}
	}
	if creator != nil && creator.Status == taskdom.Published && !force {
		return "", apierr.ModelCreatingTaskExists("and published, use force=True to delete").With("task", m.Task)
	}
	for _, t := range users {
		if creator != nil && t.ID == creator.ID {
			continue // written once below, with the output changes
		}
		repointInputs(t, id, deletedRef)
		t.LastChange, t.LastChangedBy = now, a.User
		if err := env.DB.Tasks().Update(ctx, q, t); err != nil {
			return "", err
		}
	}
	if creator != nil {
		creator.Normalize()
		repointInputs(creator, id, deletedRef)
		if creator.Status == taskdom.Published {
			for _, it := range creator.Models.Output {
				if it != nil && it.Model == id {
					it.Model = deletedRef
				}
			}
			msg := "model deleted on " + now.Format()
			creator.Output.Error = &msg
		} else {
			kept := creator.Models.Output[:0]
			for _, it := range creator.Models.Output {
				if it == nil || it.Model != id {
					kept = append(kept, it)
				}
			}
			creator.Models.Output = kept
		}
		creator.LastChange, creator.LastChangedBy = now, a.User
		if err := env.DB.Tasks().Update(ctx, q, creator); err != nil {
			return "", err
		}
	}
	if _, err := domain.DeleteModels(ctx, env, q, []string{id}, nil); err != nil {
		return "", err
	}
	return m.URI, nil
}

// repointInputs makes t's input entries of model point at ref.
func repointInputs(t *store.Task, model, ref string) {
	for _, it := range t.Models.Input {
		if it != nil && it.Model == model {
			it.Model = ref
		}
	}
}
