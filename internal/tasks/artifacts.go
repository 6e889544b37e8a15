package tasks

import (
	"context"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

func artifactIndex(list []*store.Artifact) map[string]*store.Artifact {
	m := map[string]*store.Artifact{}
	for _, a := range list {
		m[artifactKey(a.Key, artifactMode(a.Mode))] = a
	}
	return m
}

// AddOrUpdateArtifacts replaces artifacts matched by (key, mode) and adds
// the others. Without force only a created task is editable (seeds; the
// reference always forces); with force also an in_progress one. The SDK
// sends force: true when it uploads.
func AddOrUpdateArtifacts(ctx context.Context, d *domain.Env, r TaskEdit, artifacts []*ArtifactInput) error {
	return r.lock(ctx, d, false, true, func(t *store.Task) error {
		idx := artifactIndex(t.Execution.Artifacts)
		for _, a := range artifacts {
			art := a.toArtifact()
			idx[artifactKey(art.Key, art.Mode)] = art
		}
		t.Execution.Artifacts = sortArtifacts(idx)
		return nil
	})
}

// ArtifactID names an artifact of a task; an empty mode is output.
type ArtifactID struct {
	Key, Mode string
}

// DeleteArtifacts removes artifacts by (key, mode); always forced, so a
// created or in_progress task.
func DeleteArtifacts(ctx context.Context, d *domain.Env, r TaskEdit, ids []ArtifactID) error {
	r.Force = true
	return r.lock(ctx, d, false, true, func(t *store.Task) error {
		idx := artifactIndex(t.Execution.Artifacts)
		for _, a := range ids {
			delete(idx, artifactKey(a.Key, artifactMode(a.Mode)))
		}
		t.Execution.Artifacts = sortArtifacts(idx)
		return nil
	})
}

// Model item types.
const (
	ModelInput  = "input"
	ModelOutput = "output"
)

// TaskModel is one model item of a task with its type (input or output).
type TaskModel struct {
	Name, Model, Type string
	// Iteration, when above the task's last_iteration, raises it.
	Iteration *int64
}

// AddOrUpdateModel replaces the task model item of that name and type, or
// appends it; always forced.
func AddOrUpdateModel(ctx context.Context, d *domain.Env, r TaskEdit, m TaskModel) error {
	r.Force = true
	return r.lock(ctx, d, false, true, func(t *store.Task) error {
		now := d.Time()
		item := &store.TaskModelItem{Name: m.Name, Model: m.Model, Updated: &now}
		list := &t.Models.Input
		if m.Type == ModelOutput {
			list = &t.Models.Output
		}
		replaced := false
		for i, old := range *list {
			if old.Name == m.Name {
				(*list)[i], replaced = item, true
			}
		}
		if !replaced {
			*list = append(*list, item)
		}
		if m.Iteration != nil && *m.Iteration > t.LastIteration {
			t.LastIteration = *m.Iteration
		}
		return nil
	})
}

// ModelKey names a task model item: its name and type.
type ModelKey struct {
	Name, Type string
}

// DeleteModels drops task model items by (name, type); unknown names are
// ignored. Always forced; last_update is kept.
func DeleteModels(ctx context.Context, d *domain.Env, r TaskEdit, keys []ModelKey) error {
	r.Force = true
	return r.lock(ctx, d, false, false, func(t *store.Task) error {
		drop := func(list []*store.TaskModelItem, typ string) []*store.TaskModelItem {
			out := []*store.TaskModelItem{}
			for _, m := range list {
				gone := false
				for _, k := range keys {
					if k.Type == typ && k.Name == m.Name {
						gone = true
					}
				}
				if !gone {
					out = append(out, m)
				}
			}
			return out
		}
		t.Models.Input, t.Models.Output = drop(t.Models.Input, ModelInput), drop(t.Models.Output, ModelOutput)
		return nil
	})
}
