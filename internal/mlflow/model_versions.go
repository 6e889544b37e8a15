package mlflow

import (
	"context"
	"strconv"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// A registered model's numbered versions: create, read, describe, move
// between stages, tag, delete.

// Stages of a model version.
const (
	StageNone       = "None"
	StageStaging    = "Staging"
	StageProduction = "Production"
	StageArchived   = "Archived"
)

// VersionReady is the status of every version (registration is
// synchronous here).
const VersionReady = "READY"

// CanonicalStage is the stage named by s (any case), or an error.
func CanonicalStage(s string) (string, error) {
	for _, st := range []string{StageNone, StageStaging, StageProduction, StageArchived} {
		if strings.EqualFold(s, st) {
			return st, nil
		}
	}
	return "", apierr.MLflowInvalidParameter("Invalid Model Version stage: %s. Value must be one of None, Staging, Production, Archived.", s)
}

// ModelVersion is a version with the aliases that point at it.
type ModelVersion struct {
	*store.ModelVersion
	Aliases []string
}

func versionNotFound(name string, version int64) error {
	return apierr.MLflowNotFound("Model Version (name=%s, version=%d) not found", name, version)
}

// ParseVersion reads a version number.
func ParseVersion(s string) (int64, error) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || v < 1 {
		return 0, apierr.MLflowInvalidParameter("Parameter 'version' must be an integer, got '%s'.", s)
	}
	return v, nil
}

// VersionCreate is a create-model-version request.
type VersionCreate struct {
	Company, User, Name, Source, RunID, RunLink, Description, ModelID string
	Tags                                                              map[string]string
}

// CreateModelVersion adds the next version of a registered model.
func CreateModelVersion(ctx context.Context, env *domain.Env, in VersionCreate) (*ModelVersion, error) {
	if in.Source == "" {
		return nil, apierr.MLflowInvalidParameter("Missing value for required parameter 'source'.")
	}
	if err := CheckSource(in.Source); err != nil {
		return nil, err
	}
	for k, v := range in.Tags {
		if err := CheckTag(k, v); err != nil {
			return nil, err
		}
	}
	var out *store.ModelVersion
	_, err := withModel(ctx, env, in.Company, in.Name, func(q store.Querier, m *store.RegisteredModel) error {
		if in.RunID != "" {
			if _, err := loadTask(ctx, env, q, in.Company, in.RunID, false); err != nil {
				return err
			}
		}
		now := env.Time().Millis()
		if m.NextVersion < 1 {
			m.NextVersion = 1
		}
		v := &store.ModelVersion{Name: m.Name, Version: m.NextVersion, Created: now, LastUpdate: now, User: in.User,
			Description: in.Description, Source: in.Source, RunID: in.RunID, RunLink: in.RunLink, ModelID: in.ModelID,
			Stage: StageNone, Status: VersionReady, Tags: copyTags(in.Tags)}
		m.NextVersion++
		out = v
		if in.ModelID != "" {
			if err := noteVersion(ctx, env, q, in.Company, in.ModelID, v.Name, v.Version); err != nil {
				return err
			}
		}
		return env.DB.PutModelVersion(ctx, q, in.Company, v)
	})
	if err != nil {
		return nil, err
	}
	return &ModelVersion{ModelVersion: out}, nil
}

// loadVersion reads version of a model with the model.
func loadVersion(ctx context.Context, env *domain.Env, q store.Querier, company, name string, version int64, lock bool) (*store.RegisteredModel, *store.ModelVersion, error) {
	m, err := loadModel(ctx, env, q, company, name, lock)
	if err != nil {
		return nil, nil, err
	}
	vs, err := env.DB.ModelVersions(ctx, q, company, name)
	if err != nil {
		return nil, nil, err
	}
	for _, v := range vs {
		if v.Version == version {
			return m, v, nil
		}
	}
	return nil, nil, versionNotFound(name, version)
}

// GetModelVersion reads one version.
func GetModelVersion(ctx context.Context, env *domain.Env, company, name string, version int64) (*ModelVersion, error) {
	m, v, err := loadVersion(ctx, env, env.DB.Read(), company, name, version, false)
	if err != nil {
		return nil, err
	}
	return &ModelVersion{ModelVersion: v, Aliases: aliasesOf(m, version)}, nil
}

// editVersion changes one version in a transaction.
func editVersion(ctx context.Context, env *domain.Env, company, name string, version int64, edit func(q store.Querier, m *store.RegisteredModel, v *store.ModelVersion) error) (*ModelVersion, error) {
	var out *ModelVersion
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		m, v, err := loadVersion(ctx, env, q, company, name, version, true)
		if err != nil {
			return err
		}
		if err := edit(q, m, v); err != nil {
			return err
		}
		now := env.Time().Millis()
		v.LastUpdate, m.LastUpdate = now, now
		if err := env.DB.PutModelVersion(ctx, q, company, v); err != nil {
			return err
		}
		out = &ModelVersion{ModelVersion: v, Aliases: aliasesOf(m, version)}
		return env.DB.UpdateRegisteredModel(ctx, q, company, name, m)
	})
	return out, err
}

// UpdateModelVersion changes a version's description.
func UpdateModelVersion(ctx context.Context, env *domain.Env, company, name string, version int64, description *string) (*ModelVersion, error) {
	return editVersion(ctx, env, company, name, version, func(_ store.Querier, _ *store.RegisteredModel, v *store.ModelVersion) error {
		if description != nil {
			v.Description = *description
		}
		return nil
	})
}

// TransitionStage moves a version to stage; archiveExisting archives the
// other versions in that stage (Staging and Production only).
func TransitionStage(ctx context.Context, env *domain.Env, company, name string, version int64, stage string, archiveExisting bool) (*ModelVersion, error) {
	st, err := CanonicalStage(stage)
	if err != nil {
		return nil, err
	}
	return editVersion(ctx, env, company, name, version, func(q store.Querier, _ *store.RegisteredModel, v *store.ModelVersion) error {
		v.Stage = st
		if !archiveExisting || (st != StageStaging && st != StageProduction) {
			return nil
		}
		vs, err := env.DB.ModelVersions(ctx, q, company, name)
		if err != nil {
			return err
		}
		for _, o := range vs {
			if o.Version != version && o.Stage == st {
				o.Stage, o.LastUpdate = StageArchived, env.Time().Millis()
				if err := env.DB.PutModelVersion(ctx, q, company, o); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// SetVersionTag sets (or with del removes) a version's tag.
func SetVersionTag(ctx context.Context, env *domain.Env, company, name string, version int64, key, value string, del bool) error {
	if err := CheckTag(key, value); err != nil {
		return err
	}
	_, err := editVersion(ctx, env, company, name, version, func(_ store.Querier, _ *store.RegisteredModel, v *store.ModelVersion) error {
		v.Tags = putTag(v.Tags, key, value, del)
		return nil
	})
	return err
}

// DeleteModelVersion removes a version and the aliases pointing at it.
func DeleteModelVersion(ctx context.Context, env *domain.Env, company, name string, version int64) error {
	return env.DB.Tx(ctx, func(q store.Querier) error {
		m, _, err := loadVersion(ctx, env, q, company, name, version, true)
		if err != nil {
			return err
		}
		for a, v := range m.Aliases {
			if v == version {
				delete(m.Aliases, a)
			}
		}
		m.LastUpdate = env.Time().Millis()
		if err := env.DB.UpdateRegisteredModel(ctx, q, company, name, m); err != nil {
			return err
		}
		return env.DB.DeleteModelVersion(ctx, q, company, name, version)
	})
}

// LatestVersions is the newest version of each of stages (all stages
// when none are given).
func LatestVersions(ctx context.Context, env *domain.Env, company, name string, stages []string) ([]*ModelVersion, error) {
	q := env.DB.Read()
	m, err := loadModel(ctx, env, q, company, name, false)
	if err != nil {
		return nil, err
	}
	var canon []string
	for _, s := range stages {
		st, err := CanonicalStage(s)
		if err != nil {
			return nil, err
		}
		canon = append(canon, st)
	}
	vs, err := env.DB.ModelVersions(ctx, q, company, name)
	if err != nil {
		return nil, err
	}
	var out []*ModelVersion
	for _, v := range latest(vs, canon) {
		out = append(out, &ModelVersion{ModelVersion: v, Aliases: aliasesOf(m, v.Version)})
	}
	return out, nil
}

// DownloadURI is where a version's files are: its source.
func DownloadURI(ctx context.Context, env *domain.Env, company, name string, version int64) (string, error) {
	v, err := GetModelVersion(ctx, env, company, name, version)
	if err != nil {
		return "", err
	}
	return v.Source, nil
}
