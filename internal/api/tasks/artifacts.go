package tasks

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/rpc"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

type addArtifactsRequest struct {
	Task      string                   `json:"task" required:"true"`
	Artifacts []*taskdom.ArtifactInput `json:"artifacts" required:"true"`
	Force     bool                     `json:"force"`
}

func (r *addArtifactsRequest) Validate() error {
	if len(r.Artifacts) == 0 {
		return apierr.Validation("artifacts", "at least one artifact is required")
	}
	return validateArtifacts("artifacts", r.Artifacts)
}

// addOrUpdateArtifacts adds or replaces artifacts (taskdom.AddOrUpdateArtifacts:
// without force only a created task).
func (s *service) addOrUpdateArtifacts(ctx context.Context, c *rpc.Call, req *addArtifactsRequest) (*updatedCount, error) {
	if err := taskdom.AddOrUpdateArtifacts(ctx, &s.d.Env, partialEdit(c, req.Task, req.Force), req.Artifacts); err != nil {
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
	ids := make([]taskdom.ArtifactID, len(req.Artifacts))
	for i, a := range req.Artifacts {
		ids[i] = taskdom.ArtifactID{Key: a.Key, Mode: a.Mode}
	}
	if err := taskdom.DeleteArtifacts(ctx, &s.d.Env, partialEdit(c, req.Task, req.Force), ids); err != nil {
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

func (s *service) addOrUpdateModel(ctx context.Context, c *rpc.Call, req *addModelRequest) (*updatedCount, error) {
	m := taskdom.TaskModel{Name: req.Name, Model: req.Model, Type: req.Type, Iteration: req.Iteration}
	if err := taskdom.AddOrUpdateModel(ctx, &s.d.Env, partialEdit(c, req.Task, true), m); err != nil {
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

func (s *service) deleteModels(ctx context.Context, c *rpc.Call, req *deleteModelsRequest) (*updatedCount, error) {
	keys := make([]taskdom.ModelKey, len(req.Models))
	for i, m := range req.Models {
		keys[i] = taskdom.ModelKey{Name: m.Name, Type: m.Type}
	}
	if err := taskdom.DeleteModels(ctx, &s.d.Env, partialEdit(c, req.Task, true), keys); err != nil {
		return nil, err
	}
	return &updatedCount{Updated: 1}, nil
}
