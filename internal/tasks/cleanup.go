package tasks

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// DeletedPrefix marks references to a deleted task or model.
const DeletedPrefix = "__DELETED__"

// CleanupResult counts what resetting or deleting a task changed.
type CleanupResult struct {
	UpdatedChildren int
	UpdatedModels   int
	DeletedModels   int
	// Events is the number of events deleted.
	Events int64
	// URLs are the files of what was deleted, removed after commit (the
	// answer's urls).
	URLs *domain.FileURLs
	// EventFiles are the files of the deleted events, removed after
	// commit too; the answer's urls.event_urls stays empty, as the
	// reference answers.
	EventFiles []string
}

// cleanupOptions say how a cleanup treats what hangs off the task.
type cleanupOptions struct {
	force bool
	// anyChildBlocks refuses any child task without force (delete, as the
	// seeds say); otherwise only published children block (reset).
	anyChildBlocks bool
	// updateChildren points children and kept models at the deleted id.
	updateChildren     bool
	deleteOutputModels bool
}

// cleanup checks and removes the outputs of a task before a reset or a
// delete: children, output models (draft ones deleted unless another
// task uses them as input) and output artifact URLs. Queue entries and
// events are detach's.
func cleanup(ctx context.Context, d *domain.Env, q store.Querier, user string, t *store.Task, o cleanupOptions) (*CleanupResult, error) {
	res := &CleanupResult{URLs: domain.NewFileURLs()}
	children, err := d.DB.TaskChildren(ctx, q, t.ID)
	if err != nil {
		return nil, err
	}
	if !o.force {
		n := 0
		for _, c := range children {
			if o.anyChildBlocks || c.Status == Published {
				n++
			}
		}
		if n > 0 {
			return nil, apierr.TaskCannotBeDeleted("has children, use force=True").With("task", t.ID, "children", n)
		}
	}
	ready, draft, err := outputModels(ctx, d, q, t)
	if err != nil {
		return nil, err
	}
	if !o.force && len(ready) > 0 {
		return nil, apierr.TaskCannotBeDeleted("has output models, use force=True").With("task", t.ID, "models", len(ready))
	}
	res.URLs.ArtifactURLs = append(res.URLs.ArtifactURLs, artifactURLs(t)...)
	now := d.Time()
	deletedRef := DeletedPrefix + t.ID
	if o.updateChildren {
		for _, c := range children {
			c.Parent, c.LastChange, c.LastChangedBy = deletedRef, now, user
			if err := d.DB.Tasks().Update(ctx, q, c); err != nil {
				return nil, err
			}
		}
		res.UpdatedChildren = len(children)
	}
	var kept []*store.Model
	if o.deleteOutputModels {
		var del []string
		for _, m := range draft {
			used, err := usedAsInput(ctx, d, q, m.ID, t.ID)
			if err != nil {
				return nil, err
			}
			if used {
				m.Task = ""
				if err := saveModel(ctx, d, q, m, user); err != nil {
					return nil, err
				}
				continue
			}
			del = append(del, m.ID)
		}
		if res.DeletedModels, err = domain.DeleteModels(ctx, d, q, del, res.URLs); err != nil {
			return nil, err
		}
	} else {
		kept = append(kept, draft...)
	}
	kept = append(kept, ready...)
	for _, m := range kept {
		if o.updateChildren {
			m.Task = deletedRef
			res.UpdatedModels++
		} else {
			m.Task = ""
		}
		if err := saveModel(ctx, d, q, m, user); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// outputModels returns the ready and draft models created by the task or
// listed among its output models.
func outputModels(ctx context.Context, d *domain.Env, q store.Querier, t *store.Task) (ready, draft []*store.Model, err error) {
	ms, err := d.DB.ModelsOfTask(ctx, q, t.ID)
	if err != nil {
		return nil, nil, err
	}
	seen := map[string]bool{}
	for _, m := range ms {
		seen[m.ID] = true
	}
	for _, it := range t.Models.Output {
		if it == nil || seen[it.Model] {
			continue
		}
		m, err := d.DB.Models().Get(ctx, q, it.Model)
		if err != nil {
			continue // a missing model is nothing to clean up
		}
		seen[m.ID] = true
		ms = append(ms, m)
	}
	for _, m := range ms {
		if m.Ready {
			ready = append(ready, m)
		} else {
			draft = append(draft, m)
		}
	}
	return ready, draft, nil
}

// usedAsInput reports whether a task other than except uses the model as input.
func usedAsInput(ctx context.Context, d *domain.Env, q store.Querier, model, except string) (bool, error) {
	ids, err := d.DB.TaskIDsUsingModel(ctx, q, model, except)
	return len(ids) > 0, err
}

func saveModel(ctx context.Context, d *domain.Env, q store.Querier, m *store.Model, user string) error {
	now := d.Time()
	m.LastChange, m.LastChangedBy = now, user
	return d.DB.Models().Update(ctx, q, m)
}
