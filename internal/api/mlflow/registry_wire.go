package mlflow

import (
	"strconv"

	"github.com/trove-ml/trove/internal/mlflow"
	"github.com/trove-ml/trove/internal/store"
)

// The model registry's answers as MLflow's JSON.

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
