package mlflow

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/trove-ml/trove/internal/mlflow"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

// The model registry's endpoints (issue 38): registered models, their
// versions, stages, aliases and tags.

var (
	patch = []string{"PATCH"}
	del   = []string{"DELETE"}
)

func (s *Server) registryTable() []endpoint {
	return []endpoint{
		{"registered-models/create", post, rpc.Write, s.createRegisteredModel},
		{"registered-models/get", get, rpc.Read, s.getRegisteredModel},
		{"registered-models/rename", post, rpc.Write, s.renameRegisteredModel},
		{"registered-models/update", patch, rpc.Write, s.updateRegisteredModel},
		{"registered-models/delete", del, rpc.Write, s.deleteRegisteredModel},
		{"registered-models/search", both, rpc.Read, s.searchRegisteredModels},
		{"registered-models/set-tag", post, rpc.Write, s.setRegisteredModelTag},
		{"registered-models/delete-tag", del, rpc.Write, s.deleteRegisteredModelTag},
		{"registered-models/get-latest-versions", both, rpc.Read, s.latestVersions},
		// one path, three calls: MountArtifacts routes them by method
		{"registered-models/alias", post, rpc.Write, s.aliasCall("POST")},
		{"registered-models/alias", del, rpc.Write, s.aliasCall("DELETE")},
		{"registered-models/alias", get, rpc.Read, s.aliasCall("GET")},
		{"model-versions/create", post, rpc.Write, s.createModelVersion},
		{"model-versions/get", get, rpc.Read, s.getModelVersion},
		{"model-versions/update", patch, rpc.Write, s.updateModelVersion},
		{"model-versions/delete", del, rpc.Write, s.deleteModelVersion},
		{"model-versions/search", both, rpc.Read, s.searchModelVersions},
		{"model-versions/transition-stage", post, rpc.Write, s.transitionStage},
		{"model-versions/set-tag", post, rpc.Write, s.setVersionTag},
		{"model-versions/delete-tag", del, rpc.Write, s.deleteVersionTag},
		{"model-versions/get-download-uri", get, rpc.Read, s.downloadURI},
	}
}

type modelVersionJSON struct {
	Name                 string   `json:"name"`
	Version              string   `json:"version"`
	CreationTimestamp    int64    `json:"creation_timestamp"`
	LastUpdatedTimestamp int64    `json:"last_updated_timestamp"`
	UserID               string   `json:"user_id,omitempty"`
	CurrentStage         string   `json:"current_stage"`
	Description          string   `json:"description,omitempty"`
	Source               string   `json:"source"`
	RunID                string   `json:"run_id,omitempty"`
	Status               string   `json:"status"`
	Tags                 []kvJSON `json:"tags,omitempty"`
	RunLink              string   `json:"run_link,omitempty"`
	Aliases              []string `json:"aliases,omitempty"`
	ModelID              string   `json:"model_id,omitempty"`
}

func versionWire(v *store.ModelVersion, aliases []string) *modelVersionJSON {
	out := &modelVersionJSON{Name: v.Name, Version: strconv.FormatInt(v.Version, 10), CreationTimestamp: v.Created,
		LastUpdatedTimestamp: v.LastUpdate, UserID: v.User, CurrentStage: v.Stage, Description: v.Description,
		Source: v.Source, RunID: v.RunID, Status: v.Status, RunLink: v.RunLink, Aliases: aliases, ModelID: v.ModelID}
	for _, k := range sortedKeys(v.Tags) {
		out.Tags = append(out.Tags, kvJSON{k, v.Tags[k]})
	}
	return out
}

type aliasJSON struct {
	Alias   string `json:"alias"`
	Version string `json:"version"`
}

type registeredModelJSON struct {
	Name                 string              `json:"name"`
	CreationTimestamp    int64               `json:"creation_timestamp"`
	LastUpdatedTimestamp int64               `json:"last_updated_timestamp"`
	UserID               string              `json:"user_id,omitempty"`
	Description          string              `json:"description,omitempty"`
	LatestVersions       []*modelVersionJSON `json:"latest_versions,omitempty"`
	Tags                 []kvJSON            `json:"tags,omitempty"`
	Aliases              []aliasJSON         `json:"aliases,omitempty"`
}

func registeredModelWire(m *mlflow.RegisteredModel) *registeredModelJSON {
	out := &registeredModelJSON{Name: m.Name, CreationTimestamp: m.Created, LastUpdatedTimestamp: m.LastUpdate,
		UserID: m.User, Description: m.Description}
	for _, v := range m.Latest {
		var aliases []string
		for _, a := range sortedAliases(m.Aliases) {
			if m.Aliases[a] == v.Version {
				aliases = append(aliases, a)
			}
		}
		out.LatestVersions = append(out.LatestVersions, versionWire(v, aliases))
	}
	for _, k := range sortedKeys(m.Tags) {
		out.Tags = append(out.Tags, kvJSON{k, m.Tags[k]})
	}
	for _, a := range sortedAliases(m.Aliases) {
		out.Aliases = append(out.Aliases, aliasJSON{a, strconv.FormatInt(m.Aliases[a], 10)})
	}
	return out
}

func sortedAliases(m map[string]int64) []string {
	s := make(map[string]string, len(m))
	for k := range m {
		s[k] = ""
	}
	return sortedKeys(s)
}

var (
	modelAnswer   = answerUnder("registered_model", registeredModelWire)
	versionAnswer = answerUnder("model_version", versionOf)
)

func versionOf(v *mlflow.ModelVersion) *modelVersionJSON {
	return versionWire(v.ModelVersion, v.Aliases)
}

// optStr reads an optional string parameter (nil when absent).
func (c *call) optStr(name string) (*string, error) {
	if !c.has(name) {
		return nil, nil
	}
	v, err := c.str(name)
	return &v, err
}

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

func (s *Server) createRegisteredModel(ctx context.Context, c *call) (any, error) {
	name, err := c.required("name")
	if err != nil {
		return nil, err
	}
	desc, err := c.str("description")
	if err != nil {
		return nil, err
	}
	var tags []kvJSON
	if err := c.list("tags", &tags); err != nil {
		return nil, err
	}
	return modelAnswer(mlflow.CreateRegisteredModel(ctx, s.env, c.id.CompanyID, c.id.UserID, name, desc, tagMap(tags)))
}

func (s *Server) getRegisteredModel(ctx context.Context, c *call) (any, error) {
	name, err := c.required("name")
	if err != nil {
		return nil, err
	}
	return modelAnswer(mlflow.GetRegisteredModel(ctx, s.env, c.id.CompanyID, name))
}

func (s *Server) renameRegisteredModel(ctx context.Context, c *call) (any, error) {
	name, err := c.required("name")
	if err != nil {
		return nil, err
	}
	newName, err := c.required("new_name")
	if err != nil {
		return nil, err
	}
	return modelAnswer(mlflow.RenameRegisteredModel(ctx, s.env, c.id.CompanyID, name, newName))
}

func (s *Server) updateRegisteredModel(ctx context.Context, c *call) (any, error) {
	name, err := c.required("name")
	if err != nil {
		return nil, err
	}
	desc, err := c.optStr("description")
	if err != nil {
		return nil, err
	}
	return modelAnswer(mlflow.UpdateRegisteredModel(ctx, s.env, c.id.CompanyID, name, desc))
}

func (s *Server) deleteRegisteredModel(ctx context.Context, c *call) (any, error) {
	name, err := c.required("name")
	if err != nil {
		return nil, err
	}
	return empty{}, mlflow.DeleteRegisteredModel(ctx, s.env, c.id.CompanyID, name)
}

func registrySearch(c *call) (mlflow.RegistrySearch, error) {
	out := mlflow.RegistrySearch{Company: c.id.CompanyID}
	var err error
	if out.MaxResults, err = c.maxResults(); err != nil {
		return out, err
	}
	if out.PageToken, err = c.str("page_token"); err != nil {
		return out, err
	}
	if out.Filter, err = c.str("filter"); err != nil {
		return out, err
	}
	out.OrderBy, err = c.strs("order_by")
	return out, err
}

func (s *Server) searchRegisteredModels(ctx context.Context, c *call) (any, error) {
	in, err := registrySearch(c)
	if err != nil {
		return nil, err
	}
	list, next, err := mlflow.SearchRegisteredModels(ctx, s.env, in)
	if err != nil {
		return nil, err
	}
	out := struct {
		Models        []*registeredModelJSON `json:"registered_models,omitempty"`
		NextPageToken string                 `json:"next_page_token,omitempty"`
	}{NextPageToken: next}
	for _, m := range list {
		out.Models = append(out.Models, registeredModelWire(m))
	}
	return out, nil
}

func (s *Server) modelTag(ctx context.Context, c *call, del bool) (any, error) {
	name, err := c.required("name")
	if err != nil {
		return nil, err
	}
	key, value, err := c.tag()
	if err != nil {
		return nil, err
	}
	return empty{}, mlflow.SetRegisteredModelTag(ctx, s.env, c.id.CompanyID, name, key, value, del)
}

func (s *Server) setRegisteredModelTag(ctx context.Context, c *call) (any, error) {
	return s.modelTag(ctx, c, false)
}

func (s *Server) deleteRegisteredModelTag(ctx context.Context, c *call) (any, error) {
	return s.modelTag(ctx, c, true)
}

func (s *Server) latestVersions(ctx context.Context, c *call) (any, error) {
	name, err := c.required("name")
	if err != nil {
		return nil, err
	}
	stages, err := c.strs("stages")
	if err != nil {
		return nil, err
	}
	list, err := mlflow.LatestVersions(ctx, s.env, c.id.CompanyID, name, stages)
	if err != nil {
		return nil, err
	}
	out := struct {
		Versions []*modelVersionJSON `json:"model_versions,omitempty"`
	}{}
	for _, v := range list {
		out.Versions = append(out.Versions, versionWire(v.ModelVersion, v.Aliases))
	}
	return out, nil
}

// alias answers registered-models/alias by method (the table row has
// none: aliasCall dispatches).
func (s *Server) aliasCall(method string) func(ctx context.Context, c *call) (any, error) {
	return func(ctx context.Context, c *call) (any, error) {
		name, err := c.required("name")
		if err != nil {
			return nil, err
		}
		alias, err := c.required("alias")
		if err != nil {
			return nil, err
		}
		switch method {
		case "GET":
			return versionAnswer(mlflow.GetVersionByAlias(ctx, s.env, c.id.CompanyID, name, alias))
		case "DELETE":
			return empty{}, mlflow.DeleteAlias(ctx, s.env, c.id.CompanyID, name, alias)
		}
		v, err := c.version()
		if err != nil {
			return nil, err
		}
		return empty{}, mlflow.SetAlias(ctx, s.env, c.id.CompanyID, name, alias, v)
	}
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
	out := struct {
		Versions      []*modelVersionJSON `json:"model_versions,omitempty"`
		NextPageToken string              `json:"next_page_token,omitempty"`
	}{NextPageToken: next}
	for _, v := range list {
		out.Versions = append(out.Versions, versionWire(v.ModelVersion, v.Aliases))
	}
	return out, nil
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
