package models

import (
	"context"
	"errors"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

type deleteRequest struct {
	Model string `json:"model" required:"true"`
	Force bool   `json:"force"`
	// DeleteExternalArtifacts (default true) deletes the weights file when
	// this server stores it.
	DeleteExternalArtifacts *bool `json:"delete_external_artifacts"`
}

type deleteResponse struct {
	Deleted bool   `json:"deleted"`
	URL     string `json:"url"`
}

func (s *service) delete(ctx context.Context, c *rpc.Call, req *deleteRequest) (*deleteResponse, error) {
	url, err := s.deleteAndRemove(ctx, c, req.Model, req.Force, api.DeleteFiles(req.DeleteExternalArtifacts))
	if err != nil {
		return nil, err
	}
	return &deleteResponse{Deleted: true, URL: url}, nil
}

type deleteManyRequest struct {
	IDs                     []string `json:"ids" required:"true"`
	Force                   bool     `json:"force"`
	DeleteExternalArtifacts *bool    `json:"delete_external_artifacts"`
}

func (s *service) deleteMany(ctx context.Context, c *rpc.Call, req *deleteManyRequest) (*api.BatchResult, error) {
	return api.RunBatch(ctx, req.IDs, func(ctx context.Context, id string) (map[string]any, error) {
		url, err := s.deleteAndRemove(ctx, c, id, req.Force, api.DeleteFiles(req.DeleteExternalArtifacts))
		if err != nil {
			return nil, err
		}
		return map[string]any{"deleted": true, "url": url}, nil
	})
}

// deleteAndRemove deletes one model in its own transaction and then, when
// deleteFiles, its weights file; it returns the model's URI.
func (s *service) deleteAndRemove(ctx context.Context, c *rpc.Call, id string, force, deleteFiles bool) (string, error) {
	var url string
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		var err error
		url, err = s.deleteOne(ctx, q, c, id, force)
		return err
	})
	if err != nil {
		return "", err
	}
	if deleteFiles {
		s.d.RemoveFiles(ctx, c.Company(), []string{url})
	}
	return url, nil
}

// deleteOne deletes a company model and returns its URI. Tasks using it
// as an input model block without force (400/205), and with force point
// at "__DELETED__<id>" instead. A published creating task blocks without
// force (400/206); with force its output entry points at the deleted id
// and output.error says when; an unpublished one just loses the entry.
func (s *service) deleteOne(ctx context.Context, q store.Querier, c *rpc.Call, id string, force bool) (string, error) {
	m, err := s.loadWritable(ctx, q, c.Company(), id)
	if err != nil {
		return "", err
	}
	deletedRef := taskdom.DeletedPrefix + id
	now := s.d.Time()
	users, err := s.d.DB.TasksUsingModel(ctx, q, id)
	if err != nil {
		return "", err
	}
	if len(users) > 0 && !force {
		return "", apierr.ModelInUse("as execution model, use force=True to delete").With("num_tasks", len(users))
	}
	var creator *store.Task
	if m.Task != "" {
		creator, err = s.d.DB.Tasks().GetForUpdate(ctx, q, m.Task)
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
		t.LastChange, t.LastChangedBy = now, c.User()
		if err := s.d.DB.Tasks().Update(ctx, q, t); err != nil {
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
		creator.LastChange, creator.LastChangedBy = now, c.User()
		if err := s.d.DB.Tasks().Update(ctx, q, creator); err != nil {
			return "", err
		}
	}
	if _, err := domain.DeleteModels(ctx, &s.d.Env, q, []string{id}, nil); err != nil {
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
