package tasks

import (
	"context"
	"sort"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

// partialEdit names the task of a partial edit for the domain.
func partialEdit(c *rpc.Call, task string, force bool) taskdom.TaskEdit {
	return taskdom.TaskEdit{Company: c.Company(), User: c.User(), Task: task, Force: force}
}

type tasksRequest struct {
	Tasks []string `json:"tasks" required:"true"`
}

type taskParams struct {
	Task        string             `json:"task"`
	Hyperparams []*store.ParamItem `json:"hyperparams"`
}

type getHyperParamsResponse struct {
	Params []taskParams `json:"params"`
}

func (s *service) getHyperParams(ctx context.Context, c *rpc.Call, req *tasksRequest) (*getHyperParamsResponse, error) {
	list, err := taskdom.VisibleTasks(ctx, &s.d.Env, c.Company(), req.Tasks, true)
	if err != nil {
		return nil, err
	}
	out := &getHyperParamsResponse{Params: []taskParams{}}
	for _, t := range list {
		items := []*store.ParamItem{}
		for _, sec := range t.Hyperparams {
			for _, p := range sec {
				items = append(items, p)
			}
		}
		sort.Slice(items, func(i, j int) bool {
			if items[i].Section != items[j].Section {
				return items[i].Section < items[j].Section
			}
			return items[i].Name < items[j].Name
		})
		out.Params = append(out.Params, taskParams{Task: t.ID, Hyperparams: items})
	}
	return out, nil
}

type editHyperParamsRequest struct {
	Task               string                `json:"task" required:"true"`
	Hyperparams        []*taskdom.ParamInput `json:"hyperparams" required:"true"`
	ReplaceHyperparams string                `json:"replace_hyperparams"`
	Force              bool                  `json:"force"`
}

func (r *editHyperParamsRequest) Validate() error {
	if len(r.Hyperparams) == 0 {
		return apierr.Validation("hyperparams", "at least one item is required")
	}
	for i, p := range r.Hyperparams {
		switch {
		case p == nil || p.Section == "":
			return apierr.Validation("hyperparams", "item %d: section is required", i)
		case p.Name == "":
			return apierr.Validation("hyperparams", "item %d: name is required", i)
		case p.Value == nil:
			return apierr.Validation("hyperparams", "item %d: value is required", i)
		}
	}
	switch r.ReplaceHyperparams {
	case "", "none", "section", "all":
		return nil
	}
	return apierr.Validation("replace_hyperparams", "must be none, section or all, got %q", r.ReplaceHyperparams)
}

type updatedCount struct {
	Updated int `json:"updated"`
}

type deletedCount struct {
	Deleted int `json:"deleted"`
}

func (s *service) editHyperParams(ctx context.Context, c *rpc.Call, req *editHyperParamsRequest) (*updatedCount, error) {
	if err := taskdom.EditHyperParams(ctx, &s.d.Env, partialEdit(c, req.Task, req.Force), req.Hyperparams, req.ReplaceHyperparams); err != nil {
		return nil, err
	}
	return &updatedCount{Updated: 1}, nil
}

type paramKey struct {
	Section string  `json:"section"`
	Name    *string `json:"name"`
}

type deleteHyperParamsRequest struct {
	Task        string      `json:"task" required:"true"`
	Hyperparams []*paramKey `json:"hyperparams" required:"true"`
	Force       bool        `json:"force"`
}

func (r *deleteHyperParamsRequest) Validate() error {
	if len(r.Hyperparams) == 0 {
		return apierr.Validation("hyperparams", "at least one item is required")
	}
	whole, single := map[string]bool{}, map[string]bool{}
	for i, k := range r.Hyperparams {
		if k == nil || k.Section == "" {
			return apierr.Validation("hyperparams", "item %d: section is required", i)
		}
		if k.Name == nil || *k.Name == "" {
			whole[k.Section] = true
		} else {
			single[k.Section] = true
		}
	}
	for sec := range whole {
		if single[sec] {
			return apierr.FieldsConflict("cannot delete a section and parameters of it at once: section=%s", sec)
		}
	}
	return nil
}

func (s *service) deleteHyperParams(ctx context.Context, c *rpc.Call, req *deleteHyperParamsRequest) (*deletedCount, error) {
	keys := make([]taskdom.ParamKey, len(req.Hyperparams))
	for i, k := range req.Hyperparams {
		keys[i].Section = k.Section
		if k.Name != nil {
			keys[i].Name = *k.Name
		}
	}
	if err := taskdom.DeleteHyperParams(ctx, &s.d.Env, partialEdit(c, req.Task, req.Force), keys); err != nil {
		return nil, err
	}
	return &deletedCount{Deleted: 1}, nil
}

type getConfigurationsRequest struct {
	Tasks []string `json:"tasks" required:"true"`
	Names []string `json:"names"`
}

type taskConfiguration struct {
	Task          string              `json:"task"`
	Configuration []*store.ConfigItem `json:"configuration"`
}

type getConfigurationsResponse struct {
	Configurations []taskConfiguration `json:"configurations"`
}

func (s *service) getConfigurations(ctx context.Context, c *rpc.Call, req *getConfigurationsRequest) (*getConfigurationsResponse, error) {
	list, err := taskdom.VisibleTasks(ctx, &s.d.Env, c.Company(), req.Tasks, true)
	if err != nil {
		return nil, err
	}
	out := &getConfigurationsResponse{Configurations: []taskConfiguration{}}
	for _, t := range list {
		items := []*store.ConfigItem{}
		for name, it := range t.Configuration {
			if len(req.Names) == 0 || contains(req.Names, name) {
				items = append(items, it)
			}
		}
		sort.Slice(items, func(i, j int) bool { return items[i].Name < items[j].Name })
		out.Configurations = append(out.Configurations, taskConfiguration{Task: t.ID, Configuration: items})
	}
	return out, nil
}

type getConfigurationNamesRequest struct {
	Tasks     []string `json:"tasks" required:"true"`
	SkipEmpty *bool    `json:"skip_empty"`
}

type taskConfigNames struct {
	Task  string   `json:"task"`
	Names []string `json:"names"`
}

type getConfigurationNamesResponse struct {
	Configurations []taskConfigNames `json:"configurations"`
}

func (s *service) getConfigurationNames(ctx context.Context, c *rpc.Call, req *getConfigurationNamesRequest) (*getConfigurationNamesResponse, error) {
	skip := req.SkipEmpty == nil || *req.SkipEmpty
	list, err := taskdom.VisibleTasks(ctx, &s.d.Env, c.Company(), req.Tasks, false)
	if err != nil {
		return nil, err
	}
	out := &getConfigurationNamesResponse{Configurations: []taskConfigNames{}}
	for _, t := range list {
		names := []string{}
		for name, it := range t.Configuration {
			if skip && (it == nil || it.Value == "") {
				continue
			}
			names = append(names, name)
		}
		sort.Strings(names)
		out.Configurations = append(out.Configurations, taskConfigNames{Task: t.ID, Names: names})
	}
	return out, nil
}

type editConfigurationRequest struct {
	Task                 string                 `json:"task" required:"true"`
	Configuration        []*taskdom.ConfigInput `json:"configuration" required:"true"`
	ReplaceConfiguration bool                   `json:"replace_configuration"`
	Force                bool                   `json:"force"`
}

func (r *editConfigurationRequest) Validate() error {
	if len(r.Configuration) == 0 {
		return apierr.Validation("configuration", "at least one item is required")
	}
	for i, it := range r.Configuration {
		switch {
		case it == nil || it.Name == "":
			return apierr.Validation("configuration", "item %d: name is required", i)
		case it.Value == nil:
			return apierr.Validation("configuration", "item %d: value is required", i)
		}
	}
	return nil
}

func (s *service) editConfiguration(ctx context.Context, c *rpc.Call, req *editConfigurationRequest) (*updatedCount, error) {
	if err := taskdom.EditConfiguration(ctx, &s.d.Env, partialEdit(c, req.Task, req.Force), req.Configuration, req.ReplaceConfiguration); err != nil {
		return nil, err
	}
	return &updatedCount{Updated: 1}, nil
}

type deleteConfigurationRequest struct {
	Task          string   `json:"task" required:"true"`
	Configuration []string `json:"configuration" required:"true"`
	Force         bool     `json:"force"`
}

func (r *deleteConfigurationRequest) Validate() error {
	if len(r.Configuration) == 0 {
		return apierr.Validation("configuration", "at least one name is required")
	}
	return nil
}

func (s *service) deleteConfiguration(ctx context.Context, c *rpc.Call, req *deleteConfigurationRequest) (*deletedCount, error) {
	if err := taskdom.DeleteConfiguration(ctx, &s.d.Env, partialEdit(c, req.Task, req.Force), req.Configuration); err != nil {
		return nil, err
	}
	return &deletedCount{Deleted: 1}, nil
}

type editRuntimeRequest struct {
	Task        string            `json:"task" required:"true"`
	AddOrUpdate map[string]string `json:"add_or_update"`
	Remove      []string          `json:"remove"`
	Force       bool              `json:"force"`
}

func (r *editRuntimeRequest) Validate() error {
	for k := range r.AddOrUpdate {
		if k == "" {
			return apierr.Validation("add_or_update", "runtime property names cannot be empty")
		}
	}
	for _, k := range r.Remove {
		if k == "" {
			return apierr.Validation("remove", "runtime property names cannot be empty")
		}
	}
	return nil
}

// editRuntime adds, replaces and removes runtime properties (2.34).
func (s *service) editRuntime(ctx context.Context, c *rpc.Call, req *editRuntimeRequest) (*updatedCount, error) {
	n, err := taskdom.EditRuntime(ctx, &s.d.Env, partialEdit(c, req.Task, req.Force), req.AddOrUpdate, req.Remove)
	if err != nil {
		return nil, err
	}
	return &updatedCount{Updated: n}, nil
}
