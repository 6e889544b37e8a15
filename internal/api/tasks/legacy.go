package tasks

import (
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

// Callers of API versions before 2.9 know no hyperparams or configuration:
// they read the legacy-typed items back as the flat execution.parameters
// and execution.model_desc, as the reference answers them.

// legacyAPI says whether a call reads tasks the pre-2.9 way.
func legacyAPI(c *rpc.Call) bool { return c.Version.Less(rpc.Version{Major: 2, Minor: 9}) }

// legacyParamName is the flat name of a hyper parameter: TF_DEFINE keeps
// its section as a prefix, the other sections are dropped.
func legacyParamName(section, name string) string {
	if section == "TF_DEFINE" {
		return section + "/" + name
	}
	return name
}

// withLegacyExecution sets a list item's execution.parameters and
// execution.model_desc from its legacy-typed items, when it has any.
func withLegacyExecution(item map[string]any) {
	params := map[string]any{}
	if hp, ok := item["hyperparams"].(map[string]any); ok {
		for _, sec := range hp {
			items, _ := sec.(map[string]any)
			for _, it := range items {
				if p, ok := it.(map[string]any); ok && p["type"] == taskdom.LegacyType {
					section, _ := p["section"].(string)
					name, _ := p["name"].(string)
					params[legacyParamName(section, name)] = p["value"]
				}
			}
		}
	}
	desc := map[string]any{}
	if conf, ok := item["configuration"].(map[string]any); ok {
		for _, it := range conf {
			if c, ok := it.(map[string]any); ok && c["type"] == taskdom.LegacyType {
				name, _ := c["name"].(string)
				desc[name] = c["value"]
			}
		}
	}
	if len(params) == 0 && len(desc) == 0 {
		return
	}
	exec, _ := item["execution"].(map[string]any)
	if exec == nil {
		exec = map[string]any{}
		item["execution"] = exec
	}
	if len(params) > 0 {
		exec["parameters"] = params
	}
	if len(desc) > 0 {
		exec["model_desc"] = desc
	}
}

// legacyExecution fills a single task's execution.parameters and
// execution.model_desc from its legacy-typed items, when it has any. t is
// the caller's own copy of the stored task, about to be answered.
func legacyExecution(t *store.Task) {
	x := &t.Execution
	for _, sec := range t.Hyperparams {
		for _, p := range sec {
			if p != nil && p.Type != nil && *p.Type == taskdom.LegacyType {
				if len(x.Parameters) == 0 {
					x.Parameters = map[string]any{}
				}
				x.Parameters[legacyParamName(p.Section, p.Name)] = p.Value
			}
		}
	}
	for _, c := range t.Configuration {
		if c != nil && c.Type != nil && *c.Type == taskdom.LegacyType {
			if len(x.ModelDesc) == 0 {
				x.ModelDesc = map[string]any{}
			}
			x.ModelDesc[c.Name] = c.Value
		}
	}
}
