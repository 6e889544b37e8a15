package tasks

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

// TaskTypes are the accepted task types: the reference's list plus the
// seeds' import and annotation (rulings: both hold).
var TaskTypes = []string{"training", "testing", "inference", "data_processing", "application", "monitor",
	"controller", "optimizer", "service", "qc", "custom", "report", "import", "annotation"}

// taskFields are the task members create, validate and edit accept.
// Pointers tell "absent" from "empty".
type taskFields struct {
	Name          *string                         `json:"name"`
	Type          *string                         `json:"type"`
	Comment       *string                         `json:"comment"`
	Parent        *string                         `json:"parent"`
	Project       *string                         `json:"project"`
	OutputDest    *string                         `json:"output_dest"`
	Tags          *[]string                       `json:"tags"`
	SystemTags    *[]string                       `json:"system_tags"`
	Execution     *executionIn                    `json:"execution"`
	Script        *scriptIn                       `json:"script"`
	Hyperparams   *map[string]map[string]*paramIn `json:"hyperparams"`
	Configuration *map[string]*configIn           `json:"configuration"`
	Models        *modelsIn                       `json:"models"`
	Container     *map[string]*string             `json:"container"`
	Runtime       *map[string]any                 `json:"runtime"`
}

// scriptIn is tasks.script; entrypoint is accepted beside entry_point.
type scriptIn struct {
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

// executionIn is tasks.execution; script inside it (the seeds' wording)
// lands in the task's script.
type executionIn struct {
	Queue       *string           `json:"queue"`
	Parameters  *map[string]any   `json:"parameters"`
	ModelDesc   *map[string]any   `json:"model_desc"`
	ModelLabels *map[string]int64 `json:"model_labels"`
	Framework   *string           `json:"framework"`
	Artifacts   *[]*artifactIn    `json:"artifacts"`
	TestSplit   *int64            `json:"test_split"`
	DockerCmd   *string           `json:"docker_cmd"`
	Model       *string           `json:"model"`
	Script      *scriptIn         `json:"script"`
}

// artifactIn is tasks.artifact.
type artifactIn struct {
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

// paramIn is tasks.params_item.
type paramIn struct {
	Section     string  `json:"section"`
	Name        string  `json:"name"`
	Value       *string `json:"value"`
	Type        *string `json:"type"`
	Description *string `json:"description"`
}

// configIn is tasks.configuration_item.
type configIn struct {
	Name        string  `json:"name"`
	Value       *string `json:"value"`
	Type        *string `json:"type"`
	Description *string `json:"description"`
}

// modelsIn is tasks.task_models.
type modelsIn struct {
	Input  *[]*modelItemIn `json:"input"`
	Output *[]*modelItemIn `json:"output"`
}

// modelItemIn is tasks.task_model_item.
type modelItemIn struct {
	Name  string `json:"name"`
	Model string `json:"model"`
}

// validate checks the shapes that need no database.
func (f *taskFields) validate(create bool) error {
	if create {
		if f.Name == nil {
			return apierr.Required("name")
		}
		if f.Type == nil {
			return apierr.Required("type")
		}
	}
	if f.Name != nil && len([]rune(strings.TrimSpace(*f.Name))) < 3 {
		return apierr.DataValidation("name must be at least 3 characters: name=%s", *f.Name)
	}
	if f.Type != nil && !contains(TaskTypes, *f.Type) {
		return apierr.Validation("type", "value must be one of %s, got %q", strings.Join(TaskTypes, ", "), *f.Type)
	}
	if f.Tags != nil {
		if err := api.ValidateTags("tags", *f.Tags); err != nil {
			return err
		}
	}
	if f.SystemTags != nil {
		if err := api.ValidateTags("system_tags", *f.SystemTags); err != nil {
			return err
		}
	}
	if f.Hyperparams != nil {
		for sec, params := range *f.Hyperparams {
			if sec == "" {
				return apierr.Validation("hyperparams", "section names must not be empty")
			}
			for name, p := range params {
				if name == "" {
					return apierr.Validation("hyperparams."+sec, "parameter names must not be empty")
				}
				if p == nil {
					return apierr.Validation("hyperparams."+sec+"."+name, "a parameter item is required")
				}
			}
		}
	}
	if f.Configuration != nil {
		for name, c := range *f.Configuration {
			if name == "" || c == nil {
				return apierr.Validation("configuration", "configuration names must not be empty and items must be objects")
			}
		}
	}
	if f.Execution != nil && f.Execution.Artifacts != nil {
		if err := validateArtifacts("execution.artifacts", *f.Execution.Artifacts); err != nil {
			return err
		}
	}
	if f.Models != nil {
		for _, list := range []*[]*modelItemIn{f.Models.Input, f.Models.Output} {
			if list == nil {
				continue
			}
			for _, m := range *list {
				if m == nil || m.Model == "" {
					return apierr.Validation("models", "every model item needs a model id")
				}
			}
		}
	}
	return nil
}

func validateArtifacts(field string, list []*artifactIn) error {
	for i, a := range list {
		if a == nil || a.Key == "" {
			return apierr.Required(field, i, "key")
		}
		if a.Type == "" {
			return apierr.Required(field, i, "type")
		}
		if a.Mode != "" && a.Mode != "input" && a.Mode != "output" {
			return apierr.Validation(field+".mode", "must be input or output, got %q", a.Mode)
		}
	}
	return nil
}

// apply writes the given fields into t. With merge (tasks.edit) execution,
// script, output and models are merged one level deep; everything else is
// replaced whole. It returns the written fields for the answer.
func (f *taskFields) apply(t *store.Task, now jsonx.Time) map[string]any {
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
		t.Hyperparams = toHyperparams(*f.Hyperparams)
		out["hyperparams"] = t.Hyperparams
	}
	if f.Configuration != nil {
		t.Configuration = toConfiguration(*f.Configuration)
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
		f.Execution.applyTo(t, now)
		out["execution"] = t.Execution
		if f.Execution.Script != nil {
			out["script"] = t.Script
		}
	}
	if f.Models != nil {
		if f.Models.Input != nil {
			t.Models.Input = toModelItems(*f.Models.Input, now)
		}
		if f.Models.Output != nil {
			t.Models.Output = toModelItems(*f.Models.Output, now)
		}
		out["models"] = t.Models
	}
	t.Normalize()
	return out
}

func (s *scriptIn) applyTo(dst *store.Script) {
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

func (e *executionIn) applyTo(t *store.Task, now jsonx.Time) {
	x := &t.Execution
	if e.Queue != nil {
		x.Queue = *e.Queue
	}
	if e.Parameters != nil {
		// Legacy flat parameters become the Args section (TF_DEFINE/x
		// goes to TF_DEFINE), as the reference converts them.
		for k, v := range *e.Parameters {
			sec, name := "Args", k
			if strings.HasPrefix(k, "TF_DEFINE/") {
				sec, name = "TF_DEFINE", strings.TrimPrefix(k, "TF_DEFINE/")
			}
			if t.Hyperparams[sec] == nil {
				t.Hyperparams[sec] = map[string]*store.ParamItem{}
			}
			legacy := "legacy"
			t.Hyperparams[sec][name] = &store.ParamItem{Section: sec, Name: name, Value: stringify(v), Type: &legacy}
		}
		x.Parameters = map[string]any{}
	}
	if e.ModelDesc != nil {
		for k, v := range *e.ModelDesc {
			legacy := "legacy"
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
		x.Artifacts = toArtifacts(*e.Artifacts)
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

func toHyperparams(in map[string]map[string]*paramIn) map[string]map[string]*store.ParamItem {
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

func (p *paramIn) toItem(sec, name string) *store.ParamItem {
	it := &store.ParamItem{Section: sec, Name: name, Type: p.Type, Description: p.Description}
	if p.Value != nil {
		it.Value = *p.Value
	}
	return it
}

func toConfiguration(in map[string]*configIn) map[string]*store.ConfigItem {
	out := map[string]*store.ConfigItem{}
	for name, c := range in {
		out[name] = c.toItem(name)
	}
	return out
}

func (c *configIn) toItem(name string) *store.ConfigItem {
	it := &store.ConfigItem{Name: name, Type: c.Type, Description: c.Description}
	if c.Value != nil {
		it.Value = *c.Value
	}
	return it
}

func toModelItems(in []*modelItemIn, now jsonx.Time) []*store.TaskModelItem {
	out := make([]*store.TaskModelItem, 0, len(in))
	for _, m := range in {
		out = append(out, &store.TaskModelItem{Name: m.Name, Model: m.Model, Updated: &now})
	}
	return out
}

// toArtifacts converts artifacts, keyed by (key, mode) with the last one
// winning, sorted by key.
func toArtifacts(in []*artifactIn) []*store.Artifact {
	byID := map[string]*store.Artifact{}
	for _, a := range in {
		art := a.toArtifact()
		byID[art.Key+"\x00"+art.Mode] = art
	}
	return sortArtifacts(byID)
}

func (a *artifactIn) toArtifact() *store.Artifact {
	mode := a.Mode
	if mode == "" {
		mode = "output"
	}
	art := &store.Artifact{Key: a.Key, Type: a.Type, Mode: mode, URI: a.URI, Hash: a.Hash, ContentSize: a.ContentSize,
		TypeData: a.TypeData, DisplayData: a.DisplayData}
	if a.Timestamp != nil {
		ts := int64(*a.Timestamp)
		art.Timestamp = &ts
	}
	return art
}

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

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
