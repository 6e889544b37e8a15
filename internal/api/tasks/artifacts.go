package tasks

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

type addArtifactsRequest struct {
	Task      string        `json:"task" required:"true"`
	Artifacts []*artifactIn `json:"artifacts" required:"true"`
	Force     bool          `json:"force"`
}

func (r *addArtifactsRequest) Validate() error {
	if len(r.Artifacts) == 0 {
		return apierr.Validation("artifacts", "at least one artifact is required")
	}
	return validateArtifacts("artifacts", r.Artifacts)
}

func artifactIndex(list []*store.Artifact) map[string]*store.Artifact {
	m := map[string]*store.Artifact{}
	for _, a := range list {
		mode := a.Mode
		if mode == "" {
			mode = "output"
		}
		m[a.Key+"\x00"+mode] = a
	}
	return m
}

// addOrUpdateArtifacts replaces artifacts matched by (key, mode) and adds
// the others. Without force only a created task is editable (seeds; the
// reference always forces); with force also an in_progress one. The SDK
// sends force: true when it uploads.
func (s *service) addOrUpdateArtifacts(ctx context.Context, c *rpc.Call, req *addArtifactsRequest) (*updatedCount, error) {
	err := s.editLocked(ctx, c, req.Task, req.Force, false, true, func(t *store.Task) error {
		idx := artifactIndex(t.Execution.Artifacts)
		for _, a := range req.Artifacts {
			art := a.toArtifact()
			idx[art.Key+"\x00"+art.Mode] = art
		}
		t.Execution.Artifacts = sortArtifacts(idx)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &updatedCount{Updated: 1}, nil
}

type artifactID struct {
	Key  string `json:"key"`
	Mode string `json:"mode"`
}

type deleteArtifactsRequest struct {
	Task      string        `json:"task" required:"true"`
	Artifacts []*artifactID `json:"artifacts" required:"true"`
	Force     bool          `json:"force"`
}

func (r *deleteArtifactsRequest) Validate() error {
	if len(r.Artifacts) == 0 {
		return apierr.Validation("artifacts", "at least one artifact id is required")
	}
	for i, a := range r.Artifacts {
		if a == nil || a.Key == "" {
			return apierr.Required("artifacts", i, "key")
		}
		if a.Mode != "" && a.Mode != "input" && a.Mode != "output" {
			return apierr.Validation("artifacts.mode", "must be input or output, got %q", a.Mode)
		}
	}
	return nil
}

func (s *service) deleteArtifacts(ctx context.Context, c *rpc.Call, req *deleteArtifactsRequest) (*deletedCount, error) {
	err := s.editLocked(ctx, c, req.Task, true, false, true, func(t *store.Task) error {
		idx := artifactIndex(t.Execution.Artifacts)
		for _, a := range req.Artifacts {
			mode := a.Mode
			if mode == "" {
				mode = "output"
			}
			delete(idx, a.Key+"\x00"+mode)
		}
		t.Execution.Artifacts = sortArtifacts(idx)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &deletedCount{Deleted: 1}, nil
}

type addModelRequest struct {
	Task      string `json:"task" required:"true"`
	Model     string `json:"model" required:"true"`
	Name      string `json:"name" required:"true"`
	Type      string `json:"type" required:"true"`
	Iteration *int64 `json:"iteration"`
}

func validModelType(field, t string) error {
	if t != "input" && t != "output" {
		return apierr.Validation(field, "must be input or output, got %q", t)
	}
	return nil
}

func (r *addModelRequest) Validate() error { return validModelType("type", r.Type) }

// addOrUpdateModel replaces the task model item of that name and type, or
// appends it; iteration raises last_iteration.
func (s *service) addOrUpdateModel(ctx context.Context, c *rpc.Call, req *addModelRequest) (*updatedCount, error) {
	err := s.editLocked(ctx, c, req.Task, true, false, true, func(t *store.Task) error {
		now := s.d.Time()
		item := &store.TaskModelItem{Name: req.Name, Model: req.Model, Updated: &now}
		list := &t.Models.Input
		if req.Type == "output" {
			list = &t.Models.Output
		}
		replaced := false
		for i, m := range *list {
			if m.Name == req.Name {
				(*list)[i], replaced = item, true
			}
		}
		if !replaced {
			*list = append(*list, item)
		}
		if req.Iteration != nil && *req.Iteration > t.LastIteration {
			t.LastIteration = *req.Iteration
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &updatedCount{Updated: 1}, nil
}

type modelKey struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

type deleteModelsRequest struct {
	Task   string      `json:"task" required:"true"`
	Models []*modelKey `json:"models" required:"true"`
}

func (r *deleteModelsRequest) Validate() error {
	if len(r.Models) == 0 {
		return apierr.Validation("models", "at least one model is required")
	}
	for i, m := range r.Models {
		if m == nil || m.Name == "" {
			return apierr.Required("models", i, "name")
		}
		if err := validModelType("models.type", m.Type); err != nil {
			return err
		}
	}
	return nil
}

// deleteModels drops task model items by (name, type); unknown names are
// ignored.
func (s *service) deleteModels(ctx context.Context, c *rpc.Call, req *deleteModelsRequest) (*updatedCount, error) {
	err := s.editLocked(ctx, c, req.Task, true, false, false, func(t *store.Task) error {
		drop := func(list []*store.TaskModelItem, typ string) []*store.TaskModelItem {
			out := []*store.TaskModelItem{}
			for _, m := range list {
				gone := false
				for _, k := range req.Models {
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
		t.Models.Input, t.Models.Output = drop(t.Models.Input, "input"), drop(t.Models.Output, "output")
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &updatedCount{Updated: 1}, nil
}
