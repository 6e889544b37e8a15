package tasks

import (
	"strings"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/jsonx"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

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
	Queue       *string         `json:"queue"`
	Parameters  *map[string]any `json:"parameters"`
	ModelDesc   *map[string]any `json:"model_desc"`
	ModelLabels *modelLabels    `json:"model_labels"`
	Framework   *string         `json:"framework"`
	Artifacts   *[]*artifactIn  `json:"artifacts"`
	TestSplit   *int64          `json:"test_split"`
	DockerCmd   *string         `json:"docker_cmd"`
	Model       *string         `json:"model"`
	Script      *scriptIn       `json:"script"`
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
	if f.Type != nil && !contains(taskdom.TaskTypes, *f.Type) {
		return apierr.Validation("type", "value must be one of %s, got %q", strings.Join(taskdom.TaskTypes, ", "), *f.Type)
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

// input is the one conversion of the request fields to the domain's.
func (f *taskFields) input() *taskdom.Fields {
	in := &taskdom.Fields{Name: f.Name, Type: f.Type, Comment: f.Comment, Parent: f.Parent, Project: f.Project,
		OutputDest: f.OutputDest, Tags: f.Tags, SystemTags: f.SystemTags, Execution: f.Execution.input(),
		Script: f.Script.input(), Container: f.Container, Runtime: f.Runtime}
	if f.Hyperparams != nil {
		h := hyperparamsInput(*f.Hyperparams)
		in.Hyperparams = &h
	}
	if f.Configuration != nil {
		c := configurationInput(*f.Configuration)
		in.Configuration = &c
	}
	if f.Models != nil {
		in.Models = &taskdom.ModelsInput{Input: modelItemsInput(f.Models.Input), Output: modelItemsInput(f.Models.Output)}
	}
	return in
}

func (s *scriptIn) input() *taskdom.ScriptInput {
	if s == nil {
		return nil
	}
	in := taskdom.ScriptInput(*s)
	return &in
}

func (e *executionIn) input() *taskdom.ExecutionInput {
	if e == nil {
		return nil
	}
	in := &taskdom.ExecutionInput{Queue: e.Queue, Parameters: e.Parameters, ModelDesc: e.ModelDesc,
		ModelLabels: (*map[string]int64)(e.ModelLabels), Framework: e.Framework, TestSplit: e.TestSplit, DockerCmd: e.DockerCmd,
		Model: e.Model, Script: e.Script.input()}
	if e.Artifacts != nil {
		arts := make([]*taskdom.ArtifactInput, len(*e.Artifacts))
		for i, a := range *e.Artifacts {
			arts[i] = a.input()
		}
		in.Artifacts = &arts
	}
	return in
}

func (a *artifactIn) input() *taskdom.ArtifactInput {
	in := taskdom.ArtifactInput(*a)
	return &in
}

func (p *paramIn) input() *taskdom.ParamInput {
	in := taskdom.ParamInput(*p)
	return &in
}

func (c *configIn) input() *taskdom.ConfigInput {
	in := taskdom.ConfigInput(*c)
	return &in
}

func hyperparamsInput(in map[string]map[string]*paramIn) map[string]map[string]*taskdom.ParamInput {
	out := make(map[string]map[string]*taskdom.ParamInput, len(in))
	for sec, params := range in {
		m := make(map[string]*taskdom.ParamInput, len(params))
		for name, p := range params {
			m[name] = p.input()
		}
		out[sec] = m
	}
	return out
}

func configurationInput(in map[string]*configIn) map[string]*taskdom.ConfigInput {
	out := make(map[string]*taskdom.ConfigInput, len(in))
	for name, c := range in {
		out[name] = c.input()
	}
	return out
}

func modelItemsInput(in *[]*modelItemIn) *[]*taskdom.ModelItemInput {
	if in == nil {
		return nil
	}
	out := make([]*taskdom.ModelItemInput, len(*in))
	for i, m := range *in {
		out[i] = &taskdom.ModelItemInput{Name: m.Name, Model: m.Model}
	}
	return &out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
