package mlflow

import (
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/mlflow"
)

// The model registry's version endpoints: create, read, describe, move
// between stages, tag, delete, search, download URI.

// version reads the version parameter (a string or a number).
func (c *call) version() (int64, error) {
	v, ok := c.params["version"]
	if !ok || len(v) == 0 || string(v) == "null" {
		return 0, missing("version")
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		s = string(v)
	}
	return mlflow.ParseVersion(s)
}

func (s *Server) createModelVersion(ctx context.Context, c *call) (any, error) {
	in := mlflow.VersionCreate{Company: c.id.CompanyID, User: c.id.UserID}
	var err error
	if in.Name, err = c.required("name"); err != nil {
		return nil, err
	}
	if in.Source, err = c.required("source"); err != nil {
		return nil, err
	}
	for name, dst := range map[string]*string{"run_id": &in.RunID, "run_link": &in.RunLink, "description": &in.Description, "model_id": &in.ModelID} {
		if *dst, err = c.str(name); err != nil {
			return nil, err
		}
	}
	var tags []kvJSON
	if err := c.list("tags", &tags); err != nil {
		return nil, err
	}
	in.Tags = tagMap(tags)
	return versionAnswer(mlflow.CreateModelVersion(ctx, s.env, in))
}

// nameVersion reads name and version.
func nameVersion(c *call) (string, int64, error) {
	name, err := c.required("name")
	if err != nil {
		return "", 0, err
	}
	v, err := c.version()
	return name, v, err
}

func (s *Server) getModelVersion(ctx context.Context, c *call) (any, error) {
	name, v, err := nameVersion(c)
	if err != nil {
		return nil, err
	}
	return versionAnswer(mlflow.GetModelVersion(ctx, s.env, c.id.CompanyID, name, v))
}

func (s *Server) updateModelVersion(ctx context.Context, c *call) (any, error) {
	name, v, err := nameVersion(c)
	if err != nil {
		return nil, err
	}
	desc, err := c.optStr("description")
	if err != nil {
		return nil, err
	}
	return versionAnswer(mlflow.UpdateModelVersion(ctx, s.env, c.id.CompanyID, name, v, desc))
}

func (s *Server) deleteModelVersion(ctx context.Context, c *call) (any, error) {
	name, v, err := nameVersion(c)
	if err != nil {
		return nil, err
	}
	return empty{}, mlflow.DeleteModelVersion(ctx, s.env, c.id.CompanyID, name, v)
}

func (s *Server) searchModelVersions(ctx context.Context, c *call) (any, error) {
	in, err := registrySearch(c)
	if err != nil {
		return nil, err
	}
	list, next, err := mlflow.SearchModelVersions(ctx, s.env, in)
	if err != nil {
		return nil, err
	}
	return struct {
		Versions      []*modelVersionJSON `json:"model_versions,omitempty"`
		NextPageToken string              `json:"next_page_token,omitempty"`
	}{wireAll(list, versionOf), next}, nil
}

func (s *Server) transitionStage(ctx context.Context, c *call) (any, error) {
	name, v, err := nameVersion(c)
	if err != nil {
		return nil, err
	}
	stage, err := c.required("stage")
	if err != nil {
		return nil, err
	}
	archive := false
	if raw, ok := c.params["archive_existing_versions"]; ok {
		var b bool
		var str string
		if json.Unmarshal(raw, &b) == nil {
			archive = b
		} else if json.Unmarshal(raw, &str) == nil {
			archive = str == "true" || str == "True"
		} else {
			return nil, badType("archive_existing_versions", "a boolean", raw)
		}
	}
	return versionAnswer(mlflow.TransitionStage(ctx, s.env, c.id.CompanyID, name, v, stage, archive))
}

func (s *Server) versionTag(ctx context.Context, c *call, del bool) (any, error) {
	name, v, err := nameVersion(c)
	if err != nil {
		return nil, err
	}
	key, value, err := c.tag()
	if err != nil {
		return nil, err
	}
	return empty{}, mlflow.SetVersionTag(ctx, s.env, c.id.CompanyID, name, v, key, value, del)
}

func (s *Server) setVersionTag(ctx context.Context, c *call) (any, error) {
	return s.versionTag(ctx, c, false)
}

func (s *Server) deleteVersionTag(ctx context.Context, c *call) (any, error) {
	return s.versionTag(ctx, c, true)
}

func (s *Server) downloadURI(ctx context.Context, c *call) (any, error) {
	name, v, err := nameVersion(c)
	if err != nil {
		return nil, err
	}
	uri, err := mlflow.DownloadURI(ctx, s.env, c.id.CompanyID, name, v)
	if err != nil {
		return nil, err
	}
	return map[string]string{"artifact_uri": uri}, nil
}
