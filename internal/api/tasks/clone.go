package tasks

import (
	"context"

	projectdom "github.com/trove-ml/trove/internal/projects"
	"github.com/trove-ml/trove/internal/rpc"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

type cloneRequest struct {
	Task                 string                                    `json:"task" required:"true"`
	NewTaskName          string                                    `json:"new_task_name"`
	NewTaskComment       string                                    `json:"new_task_comment"`
	NewTaskTags          []string                                  `json:"new_task_tags"`
	NewTaskSystemTags    []string                                  `json:"new_task_system_tags"`
	NewTaskParent        string                                    `json:"new_task_parent"`
	NewTaskProject       string                                    `json:"new_task_project"`
	NewTaskHyperparams   map[string]map[string]*taskdom.ParamInput `json:"new_task_hyperparams"`
	NewTaskConfiguration map[string]*taskdom.ConfigInput           `json:"new_task_configuration"`
	NewTaskContainer     map[string]*string                        `json:"new_task_container"`
	NewTaskInputModels   []*taskdom.ModelItemInput                 `json:"new_task_input_models"`
	ExecutionOverrides   *taskdom.ExecutionInput                   `json:"execution_overrides"`
	ValidateReferences   bool                                      `json:"validate_references"`
	NewProjectName       string                                    `json:"new_project_name"`
}

func (r *cloneRequest) Validate() error {
	f := taskdom.Fields{Tags: &r.NewTaskTags, SystemTags: &r.NewTaskSystemTags}
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
		f.Models = &taskdom.ModelsInput{Input: &r.NewTaskInputModels}
	}
	return validateFields(&f, false)
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
	r := taskdom.CloneRequest{Company: c.Company(), User: c.User(), Task: req.Task, Name: req.NewTaskName,
		Comment: req.NewTaskComment, Tags: req.NewTaskTags, SystemTags: req.NewTaskSystemTags,
		Parent: req.NewTaskParent, Project: req.NewTaskProject, Container: req.NewTaskContainer,
		Hyperparams: req.NewTaskHyperparams, Configuration: req.NewTaskConfiguration, InputModels: req.NewTaskInputModels,
		ExecutionOverrides: req.ExecutionOverrides, ValidateReferences: req.ValidateReferences,
		NewProjectName: req.NewProjectName}
	res, err := taskdom.Clone(ctx, &s.d.Env, r, projectdom.EnsureByName)
	if err != nil {
		return nil, err
	}
	resp := &cloneResponse{ID: res.ID}
	if res.NewProject != nil {
		resp.NewProject = &newProject{ID: res.NewProject.ID, Name: res.NewProject.Name}
	}
	return resp, nil
}
