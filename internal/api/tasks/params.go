package tasks

import (
	"context"
	"sort"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

// propertiesSection holds user properties, editable in any status.
const propertiesSection = "properties"

// editLocked runs a partial edit under the status lock (taskdom.EditLocked);
// touch says whether it sets last_update.
func (s *service) editLocked(ctx context.Context, c *rpc.Call, id string, force, anyStatus, touch bool, fn func(t *store.Task) error) error {
	return taskdom.EditLocked(ctx, &s.d.Env, taskdom.EditRequest{Company: c.Company(), User: c.User(), Task: id,
		Force: force, AnyStatus: anyStatus, Touch: touch}, fn)
}

type tasksRequest struct {
	Tasks []string `json:"tasks" required:"true"`
}

// loadVisible loads the listed tasks the caller may read; any unknown id
// is 400/101.
func (s *service) loadVisible(ctx context.Context, c *rpc.Call, ids []string, strict bool) ([]*store.Task, error) {
	var out []*store.Task
	var missing []string
	for _, id := range ids {
		t, err := s.visibleTask(ctx, s.d.DB.Read(), c, id)
		if err != nil {
			if !apierr.Is(err, 400, 101) {
				return nil, err
			}
			missing = append(missing, id)
			continue
		}
		out = append(out, t)
	}
	if strict && len(missing) > 0 {
		return nil, apierr.InvalidTaskID(missing...)
	}
	return out, nil
}

type taskParams struct {
	Task        string       `json:"task"`
	Hyperparams []*paramItem `json:"hyperparams"`
}

type getHyperParamsResponse struct {
	Params []taskParams `json:"params"`
}

func (s *service) getHyperParams(ctx context.Context, c *rpc.Call, req *tasksRequest) (*getHyperParamsResponse, error) {
	list, err := s.loadVisible(ctx, c, req.Tasks, true)
	if err != nil {
		return nil, err
	}
	out := &getHyperParamsResponse{Params: []taskParams{}}
	for _, t := range list {
		items := []*paramItem{}
		for _, sec := range t.Hyperparams {
			for _, p := range sec {
				items = append(items, toWireParam(p))
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
	Task               string     `json:"task" required:"true"`
	Hyperparams        []*paramIn `json:"hyperparams" required:"true"`
	ReplaceHyperparams string     `json:"replace_hyperparams"`
	Force              bool       `json:"force"`
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

// onlyProperties reports whether every section is the user properties one
// (stored lower-case); those edits are allowed in any status.
func onlyProperties(sections []string) bool {
	for _, s := range sections {
		if !strings.EqualFold(s, propertiesSection) {
			return false
		}
	}
	return true
}

func sectionName(s string) string {
	if strings.EqualFold(s, propertiesSection) {
		return propertiesSection
	}
	return s
}

func (s *service) editHyperParams(ctx context.Context, c *rpc.Call, req *editHyperParamsRequest) (*updatedCount, error) {
	var sections []string
	for _, p := range req.Hyperparams {
		sections = append(sections, p.Section)
	}
	props := onlyProperties(sections)
	err := s.editLocked(ctx, c, req.Task, req.Force, props, !props, func(t *store.Task) error {
		switch req.ReplaceHyperparams {
		case "all":
			t.Hyperparams = map[string]map[string]*store.ParamItem{}
		case "section":
			for _, p := range req.Hyperparams {
				delete(t.Hyperparams, sectionName(p.Section))
			}
		}
		for _, p := range req.Hyperparams {
			sec := sectionName(p.Section)
			if t.Hyperparams[sec] == nil {
				t.Hyperparams[sec] = map[string]*store.ParamItem{}
			}
			t.Hyperparams[sec][p.Name] = p.toItem(sec, p.Name)
		}
		return nil
	})
	if err != nil {
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
	var sections []string
	for _, k := range req.Hyperparams {
		sections = append(sections, k.Section)
	}
	props := onlyProperties(sections)
	err := s.editLocked(ctx, c, req.Task, req.Force, props, !props, func(t *store.Task) error {
		for _, k := range req.Hyperparams {
			sec := sectionName(k.Section)
			if k.Name == nil || *k.Name == "" {
				delete(t.Hyperparams, sec)
				continue
			}
			delete(t.Hyperparams[sec], *k.Name)
			if len(t.Hyperparams[sec]) == 0 {
				delete(t.Hyperparams, sec)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &deletedCount{Deleted: 1}, nil
}

type getConfigurationsRequest struct {
	Tasks []string `json:"tasks" required:"true"`
	Names []string `json:"names"`
}

type taskConfiguration struct {
	Task          string        `json:"task"`
	Configuration []*configItem `json:"configuration"`
}

type getConfigurationsResponse struct {
	Configurations []taskConfiguration `json:"configurations"`
}

func (s *service) getConfigurations(ctx context.Context, c *rpc.Call, req *getConfigurationsRequest) (*getConfigurationsResponse, error) {
	list, err := s.loadVisible(ctx, c, req.Tasks, true)
	if err != nil {
		return nil, err
	}
	out := &getConfigurationsResponse{Configurations: []taskConfiguration{}}
	for _, t := range list {
		items := []*configItem{}
		for name, it := range t.Configuration {
			if len(req.Names) == 0 || contains(req.Names, name) {
				items = append(items, toWireConfig(it))
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
	list, err := s.loadVisible(ctx, c, req.Tasks, false)
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
	Task                 string      `json:"task" required:"true"`
	Configuration        []*configIn `json:"configuration" required:"true"`
	ReplaceConfiguration bool        `json:"replace_configuration"`
	Force                bool        `json:"force"`
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
	err := s.editLocked(ctx, c, req.Task, req.Force, false, true, func(t *store.Task) error {
		if req.ReplaceConfiguration {
			t.Configuration = map[string]*store.ConfigItem{}
		}
		for _, it := range req.Configuration {
			t.Configuration[it.Name] = it.toItem(it.Name)
		}
		return nil
	})
	if err != nil {
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
	err := s.editLocked(ctx, c, req.Task, req.Force, false, true, func(t *store.Task) error {
		for _, name := range req.Configuration {
			delete(t.Configuration, name)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &deletedCount{Deleted: 1}, nil
}
