package tasks

import (
	"context"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// propertiesSection holds user properties, editable in any status.
const propertiesSection = "properties"

// TaskEdit names the task of a partial edit, its caller and whether the
// status lock is forced (created, or also in_progress with force).
type TaskEdit struct {
	Company, User, Task string
	Force               bool
}

// lock runs a partial edit under the status lock unless anyStatus; touch
// says whether it sets last_update.
func (r TaskEdit) lock(ctx context.Context, d *domain.Env, anyStatus, touch bool, edit func(t *store.Task) error) error {
	return EditLocked(ctx, d, EditRequest{Company: r.Company, User: r.User, Task: r.Task, Force: r.Force,
		AnyStatus: anyStatus, Touch: touch}, edit)
}

// VisibleTasks loads the listed tasks the company may read, in order.
// Unknown ids are skipped, or with strict are one 400/101 naming them all.
func VisibleTasks(ctx context.Context, d *domain.Env, company string, ids []string, strict bool) ([]*store.Task, error) {
	var out []*store.Task
	var missing []string
	for _, id := range ids {
		t, err := Visible(ctx, d, d.DB.Read(), company, id)
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

// onlyProperties reports whether every section is the user properties one
// (stored lower-case); those edits are allowed in any status and do not
// touch last_update.
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

// Replace modes of EditHyperParams.
const (
	ReplaceNone    = "none"
	ReplaceSection = "section"
	ReplaceAll     = "all"
)

// EditHyperParams sets hyperparameters of a task. replace "all" drops
// every section first, "section" the sections named; anything else keeps
// the others. Editing only user properties is allowed in any status.
func EditHyperParams(ctx context.Context, d *domain.Env, r TaskEdit, params []*ParamInput, replace string) error {
	sections := make([]string, 0, len(params))
	for _, p := range params {
		sections = append(sections, p.Section)
	}
	props := onlyProperties(sections)
	return r.lock(ctx, d, props, !props, func(t *store.Task) error {
		switch replace {
		case ReplaceAll:
			t.Hyperparams = map[string]map[string]*store.ParamItem{}
		case ReplaceSection:
			for _, p := range params {
				delete(t.Hyperparams, sectionName(p.Section))
			}
		}
		for _, p := range params {
			sec := sectionName(p.Section)
			if t.Hyperparams[sec] == nil {
				t.Hyperparams[sec] = map[string]*store.ParamItem{}
			}
			t.Hyperparams[sec][p.Name] = p.toItem(sec, p.Name)
		}
		return nil
	})
}

// ParamKey names a hyperparameter, or with an empty Name a whole section.
type ParamKey struct {
	Section, Name string
}

// DeleteHyperParams removes hyperparameters or whole sections; a section
// left empty is removed. Only user properties: any status.
func DeleteHyperParams(ctx context.Context, d *domain.Env, r TaskEdit, keys []ParamKey) error {
	sections := make([]string, 0, len(keys))
	for _, k := range keys {
		sections = append(sections, k.Section)
	}
	props := onlyProperties(sections)
	return r.lock(ctx, d, props, !props, func(t *store.Task) error {
		for _, k := range keys {
			sec := sectionName(k.Section)
			if k.Name == "" {
				delete(t.Hyperparams, sec)
				continue
			}
			delete(t.Hyperparams[sec], k.Name)
			if len(t.Hyperparams[sec]) == 0 {
				delete(t.Hyperparams, sec)
			}
		}
		return nil
	})
}

// EditConfiguration sets configuration items by name, with replace after
// dropping all others, under the status lock.
func EditConfiguration(ctx context.Context, d *domain.Env, r TaskEdit, items []*ConfigInput, replace bool) error {
	return r.lock(ctx, d, false, true, func(t *store.Task) error {
		if replace {
			t.Configuration = map[string]*store.ConfigItem{}
		}
		for _, it := range items {
			t.Configuration[it.Name] = it.toItem(it.Name)
		}
		return nil
	})
}

// DeleteConfiguration removes configuration items by name under the
// status lock; unknown names are ignored.
func DeleteConfiguration(ctx context.Context, d *domain.Env, r TaskEdit, names []string) error {
	return r.lock(ctx, d, false, true, func(t *store.Task) error {
		for _, name := range names {
			delete(t.Configuration, name)
		}
		return nil
	})
}
