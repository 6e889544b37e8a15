package tasks

import (
	"strings"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

// validateFields checks the shapes of a task's fields that need no
// database (create, validate, edit, update and clone requests).
func validateFields(f *taskdom.Fields, create bool) error {
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
		for _, list := range []*[]*taskdom.ModelItemInput{f.Models.Input, f.Models.Output} {
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

func validateArtifacts(field string, list []*taskdom.ArtifactInput) error {
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

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
