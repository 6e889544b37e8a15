package tasks

import (
	"context"
	"strings"

	"github.com/trove-ml/trove/internal/api/projects"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

type cloneRequest struct {
	Task                 string                         `json:"task" required:"true"`
	NewTaskName          string                         `json:"new_task_name"`
	NewTaskComment       string                         `json:"new_task_comment"`
	NewTaskTags          []string                       `json:"new_task_tags"`
	NewTaskSystemTags    []string                       `json:"new_task_system_tags"`
	NewTaskParent        string                         `json:"new_task_parent"`
	NewTaskProject       string                         `json:"new_task_project"`
	NewTaskHyperparams   map[string]map[string]*paramIn `json:"new_task_hyperparams"`
	NewTaskConfiguration map[string]*configIn           `json:"new_task_configuration"`
	NewTaskContainer     map[string]*string             `json:"new_task_container"`
	NewTaskInputModels   []*modelItemIn                 `json:"new_task_input_models"`
	ExecutionOverrides   *executionIn                   `json:"execution_overrides"`
	ValidateReferences   bool                           `json:"validate_references"`
	NewProjectName       string                         `json:"new_project_name"`
}

func (r *cloneRequest) Validate() error {
	f := taskFields{Tags: &r.NewTaskTags, SystemTags: &r.NewTaskSystemTags}
	if r.NewTaskName != "" {
		f.Name = &r.NewTaskName
	}
	if r.NewTaskHyperparams != nil {
		f.Hyperparams = &r.NewTaskHyperparams
	}
	if r.NewTaskConfiguration != nil {
		f.Configuration = &r.NewTaskConfiguration
	}
	if r.ExecutionOverrides != nil {
		f.Execution = r.ExecutionOverrides
	}
	if r.NewTaskInputModels != nil {
		f.Models = &modelsIn{Input: &r.NewTaskInputModels}
	}
	return f.validate(false)
}

type newProject struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type cloneResponse struct {
	ID         string      `json:"id"`
	NewProject *newProject `json:"new_project,omitempty"`
}

func (s *service) clone(ctx context.Context, c *rpc.Call, req *cloneRequest) (*cloneResponse, error) {
	resp := &cloneResponse{}
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		src, err := s.visibleTask(ctx, q, c, req.Task)
		if err != nil {
			return err
		}
		t := s.cloneOf(c, src, req)
		if req.NewTaskProject == "" && req.NewProjectName != "" {
			p, err := projects.EnsureByName(ctx, s.d, q, c.Company(), c.User(), req.NewProjectName)
			if err != nil {
				return err
			}
			t.Project = p.ID
			resp.NewProject = &newProject{ID: p.ID, Name: p.Name}
		}
		checks := taskdom.RefChecks{
			Parent:  req.ValidateReferences || req.NewTaskParent != "",
			Project: req.ValidateReferences || req.NewTaskProject != "",
			Models:  req.ValidateReferences || len(req.NewTaskInputModels) > 0 || (req.ExecutionOverrides != nil && req.ExecutionOverrides.Model != nil),
		}
		if err := taskdom.Insert(ctx, &s.d.Env, q, c.Company(), t, checks); err != nil {
			return err
		}
		resp.ID = t.ID
		return nil
	})
	if err != nil {
		return nil, err
	}
	return resp, nil
}

// cloneOf builds the new task: the source's definition with the request's
// replacements, and none of its run state.
func (s *service) cloneOf(c *rpc.Call, src *store.Task, req *cloneRequest) *store.Task {
	now := s.d.Time()
	t := &store.Task{ID: ids.New(), Company: c.Company(), User: c.User(), Status: taskdom.Created,
		Created: now, LastUpdate: now, LastChange: now, LastChangedBy: c.User(),
		Name: src.Name, Comment: src.Comment, Type: src.Type, Project: src.Project,
		Tags: src.Tags, Script: src.Script, Container: src.Container, Hyperparams: src.Hyperparams,
		Configuration: src.Configuration, Execution: src.Execution}
	if req.NewTaskName != "" {
		t.Name = strings.TrimSpace(req.NewTaskName)
	}
	if req.NewTaskComment != "" {
		t.Comment = &req.NewTaskComment
	}
	if len(req.NewTaskTags) > 0 {
		t.Tags = domain.SortedTags(req.NewTaskTags)
	}
	// seeds: new_task_system_tags is "empty when absent", the one
	// new_task_* field not taken from the original
	t.SystemTags = domain.SortedTags(req.NewTaskSystemTags)
	switch {
	case req.NewTaskParent != "":
		t.Parent = req.NewTaskParent
	case src.Parent != "" && !strings.HasPrefix(src.Parent, taskdom.DeletedPrefix):
		t.Parent = src.Parent
	default:
		t.Parent = src.ID
	}
	if req.NewTaskProject != "" {
		t.Project = req.NewTaskProject
	}
	if src.Output.Destination != nil {
		t.Output.Destination = src.Output.Destination
	}
	if len(req.NewTaskHyperparams) > 0 {
		t.Hyperparams = toHyperparams(req.NewTaskHyperparams)
	}
	if len(req.NewTaskConfiguration) > 0 {
		t.Configuration = toConfiguration(req.NewTaskConfiguration)
	}
	if len(req.NewTaskContainer) > 0 {
		t.Container = req.NewTaskContainer
	}
	t.Models.Input = src.Models.Input
	if len(req.NewTaskInputModels) > 0 {
		t.Models.Input = toModelItems(req.NewTaskInputModels, now)
	}
	t.Normalize()
	if o := req.ExecutionOverrides; o != nil {
		if len(req.NewTaskInputModels) > 0 {
			o.Model = nil
		}
		if len(req.NewTaskContainer) > 0 {
			o.DockerCmd = nil
		}
		o.applyTo(t, now)
	}
	t.Execution.Queue = ""
	t.Execution.Artifacts = taskdom.InputArtifacts(t.Execution.Artifacts)
	t.Normalize()
	return t
}
