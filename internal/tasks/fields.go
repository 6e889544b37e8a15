package tasks

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

// TaskTypes are the accepted task types: the reference's list plus the
// seeds' import and annotation (rulings: both hold).
var TaskTypes = []string{"training", "testing", "inference", "data_processing", "application", "monitor",
	"controller", "optimizer", "service", "qc", "custom", "report", "import", "annotation"}

// Fields are the task members create, validate and edit write, as the
// requests spell them (the handlers decode into them). Pointers tell
// "absent" from "empty".
type Fields struct {
	Name          *string                            `json:"name"`
	Type          *string                            `json:"type"`
	Comment       *string                            `json:"comment"`
	Parent        *string                            `json:"parent"`
	Project       *string                            `json:"project"`
	OutputDest    *string                            `json:"output_dest"`
	Tags          *[]string                          `json:"tags"`
	SystemTags    *[]string                          `json:"system_tags"`
	Execution     *ExecutionInput                    `json:"execution"`
	Script        *ScriptInput                       `json:"script"`
	Hyperparams   *map[string]map[string]*ParamInput `json:"hyperparams"`
	Configuration *map[string]*ConfigInput           `json:"configuration"`
	Models        *ModelsInput                       `json:"models"`
	Container     *map[string]*string                `json:"container"`
	Runtime       *map[string]any                    `json:"runtime"`
}

// ScriptInput is tasks.script; entrypoint is accepted beside entry_point.
type ScriptInput struct {
	Binary       *string         `json:"binary"`
	Repository   *string         `json:"repository"`
	Tag          *string         `json:"tag"`
	Branch       *string         `json:"branch"`
	VersionNum   *string         `json:"version_num"`
	EntryPoint   *string         `json:"entry_point"`
	Entrypoint   *string         `json:"entrypoint"`
	WorkingDir   *string         `json:"working_dir"`
	Requirements *map[string]any `json:"requirements"`
	Diff         *string         `json:"diff"`
}

// ExecutionInput is tasks.execution; script inside it (the seeds' wording)
// lands in the task's script.
type ExecutionInput struct {
	Queue       *string           `json:"queue"`
	Parameters  *map[string]any   `json:"parameters"`
	ModelDesc   *map[string]any   `json:"model_desc"`
	ModelLabels *ModelLabels      `json:"model_labels"`
	Framework   *string           `json:"framework"`
	Artifacts   *[]*ArtifactInput `json:"artifacts"`
	TestSplit   *int64            `json:"test_split"`
	DockerCmd   *string           `json:"docker_cmd"`
	Model       *string           `json:"model"`
	Script      *ScriptInput      `json:"script"`
}

// ArtifactInput is tasks.artifact; an empty mode is output.
type ArtifactInput struct {
	Key         string         `json:"key"`
	Type        string         `json:"type"`
	Mode        string         `json:"mode"`
	URI         *string        `json:"uri"`
	Hash        *string        `json:"hash"`
	ContentSize *int64         `json:"content_size"`
	Timestamp   *jsonx.Float   `json:"timestamp"`
	TypeData    map[string]any `json:"type_data"`
	DisplayData [][]any        `json:"display_data"`
}

// ParamInput is tasks.params_item, one hyperparameter.
type ParamInput struct {
	Section     string  `json:"section"`
	Name        string  `json:"name"`
	Value       *string `json:"value"`
	Type        *string `json:"type"`
	Description *string `json:"description"`
}

// ConfigInput is tasks.configuration_item.
type ConfigInput struct {
	Name        string  `json:"name"`
	Value       *string `json:"value"`
	Type        *string `json:"type"`
	Description *string `json:"description"`
}

// ModelsInput is tasks.task_models; nil leaves a list.
type ModelsInput struct {
	Input  *[]*ModelItemInput `json:"input"`
	Output *[]*ModelItemInput `json:"output"`
}

// ModelItemInput is tasks.task_model_item.
type ModelItemInput struct {
	Name  string `json:"name"`
	Model string `json:"model"`
}

// Apply writes the given fields into t. Execution, script and models are
// merged one level deep; everything else is replaced whole. It returns
// the written fields for the answer.
func (f *Fields) Apply(t *store.Task, now jsonx.Time) map[string]any {
	out := map[string]any{}
	if f.Name != nil {
		t.Name = strings.TrimSpace(*f.Name)
		out["name"] = t.Name
	}
	if f.Type != nil {
		t.Type = *f.Type
		out["type"] = t.Type
	}
	if f.Comment != nil {
		t.Comment = f.Comment
		out["comment"] = *f.Comment
	}
	if f.Parent != nil {
		t.Parent = *f.Parent
		out["parent"] = t.Parent
	}
	if f.Project != nil {
		t.Project = *f.Project
		out["project"] = t.Project
	}
	if f.OutputDest != nil {
		t.Output.Destination = f.OutputDest
		out["output"] = t.Output
	}
	if f.Tags != nil {
		t.Tags = domain.SortedTags(*f.Tags)
		out["tags"] = t.Tags
	}
	if f.SystemTags != nil {
		t.SystemTags = domain.SortedTags(*f.SystemTags)
		out["system_tags"] = t.SystemTags
	}
	if f.Hyperparams != nil {
		t.Hyperparams = ToHyperparams(*f.Hyperparams)
		out["hyperparams"] = t.Hyperparams
	}
	if f.Configuration != nil {
		t.Configuration = ToConfiguration(*f.Configuration)
		out["configuration"] = t.Configuration
	}
	if f.Container != nil {
		t.Container = *f.Container
		if t.Container == nil {
			t.Container = map[string]*string{}
		}
		out["container"] = t.Container
	}
	if f.Runtime != nil {
		t.Runtime = *f.Runtime
		if t.Runtime == nil {
			t.Runtime = map[string]any{}
		}
		out["runtime"] = t.Runtime
	}
	if f.Script != nil {
		f.Script.applyTo(&t.Script)
		out["script"] = t.Script
	}
	if f.Execution != nil {
		f.Execution.ApplyTo(t, now)
		out["execution"] = t.Execution
		if f.Execution.Script != nil {
			out["script"] = t.Script
		}
	}
	if f.Models != nil {
		if f.Models.Input != nil {
			t.Models.Input = ToModelItems(*f.Models.Input, now)
		}
		if f.Models.Output != nil {
			t.Models.Output = ToModelItems(*f.Models.Output, now)
		}
		out["models"] = t.Models
	}
	t.Normalize()
	return out
}

func (s *ScriptInput) applyTo(dst *store.Script) {
	strip := func(p *string) *string {
		if p == nil {
			return nil
		}
		v := strings.TrimSpace(*p)
		return &v
	}
	if s.Binary != nil {
		dst.Binary = *strip(s.Binary)
	}
	if s.Repository != nil {
		dst.Repository = *strip(s.Repository)
	}
	if s.Tag != nil {
		dst.Tag = strip(s.Tag)
	}
	if s.Branch != nil {
		dst.Branch = strip(s.Branch)
	}
	if s.VersionNum != nil {
		dst.VersionNum = strip(s.VersionNum)
	}
	if s.Entrypoint != nil {
		dst.EntryPoint = *strip(s.Entrypoint)
	}
	if s.EntryPoint != nil {
		dst.EntryPoint = *strip(s.EntryPoint)
	}
	if s.WorkingDir != nil {
		dst.WorkingDir = strip(s.WorkingDir)
	}
	if s.Requirements != nil {
		dst.Requirements = *s.Requirements
	}
	if s.Diff != nil {
		dst.Diff = s.Diff
	}
}

// LegacyType marks the hyperparameters and configuration items that came
// from the legacy execution.parameters and execution.model_desc.
const LegacyType = "legacy"

// dropLegacyParams removes the legacy-typed hyperparameters, and the
// sections they leave empty.
func dropLegacyParams(hp map[string]map[string]*store.ParamItem) {
	for sec, params := range hp {
		for name, p := range params {
			if p != nil && p.Type != nil && *p.Type == LegacyType {
				delete(params, name)
			}
		}
		if len(params) == 0 {
			delete(hp, sec)
		}
	}
}

// ApplyTo merges an execution into t (also tasks.clone's overrides).
func (e *ExecutionInput) ApplyTo(t *store.Task, now jsonx.Time) {
	x := &t.Execution
	if e.Queue != nil {
		x.Queue = *e.Queue
	}
	if e.Parameters != nil {
		// Legacy flat parameters become the Args section (TF_DEFINE/x
		// goes to TF_DEFINE), as the reference converts them. They
		// replace the legacy parameters set before, as the old API's
		// whole execution.parameters did.
		dropLegacyParams(t.Hyperparams)
		for k, v := range *e.Parameters {
			sec, name := "Args", k
			if strings.HasPrefix(k, "TF_DEFINE/") {
				sec, name = "TF_DEFINE", strings.TrimPrefix(k, "TF_DEFINE/")
			}
			if t.Hyperparams[sec] == nil {
				t.Hyperparams[sec] = map[string]*store.ParamItem{}
			}
			legacy := LegacyType
			t.Hyperparams[sec][name] = &store.ParamItem{Section: sec, Name: name, Value: stringify(v), Type: &legacy}
		}
		x.Parameters = map[string]any{}
	}
	if e.ModelDesc != nil {
		for k, c := range t.Configuration {
			if c != nil && c.Type != nil && *c.Type == LegacyType {
				delete(t.Configuration, k)
			}
		}
		for k, v := range *e.ModelDesc {
			legacy := LegacyType
			t.Configuration[k] = &store.ConfigItem{Name: k, Value: stringify(v), Type: &legacy}
		}
		x.ModelDesc = map[string]any{}
	}
	if e.ModelLabels != nil {
		x.ModelLabels = *e.ModelLabels
	}
	if e.Framework != nil {
		x.Framework = e.Framework
	}
	if e.Artifacts != nil {
		x.Artifacts = ToArtifacts(*e.Artifacts)
	}
	if e.TestSplit != nil {
		x.TestSplit = *e.TestSplit
	}
	if e.DockerCmd != nil {
		image, args, _ := strings.Cut(*e.DockerCmd, " ")
		t.Container["image"], t.Container["arguments"] = &image, &args
	}
	if e.Model != nil && *e.Model != "" {
		t.Models.Input = []*store.TaskModelItem{{Name: "Input Model", Model: *e.Model, Updated: &now}}
	}
	if e.Script != nil {
		e.Script.applyTo(&t.Script)
	}
}

func stringify(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// ToHyperparams converts hyperparameters by section and name.
func ToHyperparams(in map[string]map[string]*ParamInput) map[string]map[string]*store.ParamItem {
	out := map[string]map[string]*store.ParamItem{}
	for sec, params := range in {
		m := map[string]*store.ParamItem{}
		for name, p := range params {
			m[name] = p.toItem(sec, name)
		}
		out[sec] = m
	}
	return out
}

func (p *ParamInput) toItem(sec, name string) *store.ParamItem {
	it := &store.ParamItem{Section: sec, Name: name, Type: p.Type, Description: p.Description}
	if p.Value != nil {
		it.Value = *p.Value
	}
	return it
}

// ToConfiguration converts configuration items by name.
func ToConfiguration(in map[string]*ConfigInput) map[string]*store.ConfigItem {
	out := map[string]*store.ConfigItem{}
	for name, c := range in {
		out[name] = c.toItem(name)
	}
	return out
}

func (c *ConfigInput) toItem(name string) *store.ConfigItem {
	it := &store.ConfigItem{Name: name, Type: c.Type, Description: c.Description}
	if c.Value != nil {
		it.Value = *c.Value
	}
	return it
}

// ToModelItems converts task model items, all updated now.
func ToModelItems(in []*ModelItemInput, now jsonx.Time) []*store.TaskModelItem {
	out := make([]*store.TaskModelItem, 0, len(in))
	for _, m := range in {
		out = append(out, &store.TaskModelItem{Name: m.Name, Model: m.Model, Updated: &now})
	}
	return out
}

// ToArtifacts converts artifacts, keyed by (key, mode) with the last one
// winning, sorted by key.
func ToArtifacts(in []*ArtifactInput) []*store.Artifact {
	byID := map[string]*store.Artifact{}
	for _, a := range in {
		art := a.toArtifact()
		byID[artifactKey(art.Key, art.Mode)] = art
	}
	return sortArtifacts(byID)
}

func (a *ArtifactInput) toArtifact() *store.Artifact {
	art := &store.Artifact{Key: a.Key, Type: a.Type, Mode: artifactMode(a.Mode), URI: a.URI, Hash: a.Hash,
		ContentSize: a.ContentSize, TypeData: a.TypeData}
	if len(a.DisplayData) > 0 {
		art.DisplayData = a.DisplayData // an empty list is stored as none
	}
	if a.Timestamp != nil {
		ts := int64(*a.Timestamp)
		art.Timestamp = &ts
	}
	return art
}

// artifactMode defaults an empty mode to output.
func artifactMode(mode string) string {
	if mode == "" {
		return "output"
	}
	return mode
}

// artifactKey identifies an artifact of a task: key and mode.
func artifactKey(key, mode string) string { return key + "\x00" + mode }

func sortArtifacts(byID map[string]*store.Artifact) []*store.Artifact {
	out := make([]*store.Artifact, 0, len(byID))
	for _, a := range byID {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Key != out[j].Key {
			return out[i].Key < out[j].Key
		}
		return out[i].Mode < out[j].Mode
	})
	return out
}
