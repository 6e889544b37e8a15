package tasks

import (
	"context"
	"strings"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
)

// EnsureProject finds or creates a project by its full name
// (projects.EnsureByName; passed in because projects uses tasks).
type EnsureProject func(ctx context.Context, d *domain.Env, q store.Querier, company, user, name string) (*store.Project, error)

// CloneRequest is a tasks.clone: the source task and the replacements of
// the new one (empty means "as the source").
type CloneRequest struct {
	Company, User, Task string
	Name, Comment       string
	Tags, SystemTags    []string
	Parent, Project     string
	Hyperparams         map[string]map[string]*ParamInput
	Configuration       map[string]*ConfigInput
	Container           map[string]*string
	InputModels         []*ModelItemInput
	ExecutionOverrides  *ExecutionInput
	ValidateReferences  bool
	// NewProjectName creates (or finds) the project when Project is empty.
	NewProjectName string
}

// CloneResult is the new task's id and the project created for it, if any.
type CloneResult struct {
	ID         string
	NewProject *store.Project
}

// Clone copies a visible task into a new created task of the caller in
// one transaction, creating its project by name when asked.
func Clone(ctx context.Context, d *domain.Env, r CloneRequest, ensure EnsureProject) (*CloneResult, error) {
	res := &CloneResult{}
	err := d.DB.Tx(ctx, func(q store.Querier) error {
		src, err := Visible(ctx, d, q, r.Company, r.Task)
		if err != nil {
			return err
		}
		t := cloneOf(d.Time(), src, r)
		if r.Project == "" && r.NewProjectName != "" {
			p, err := ensure(ctx, d, q, r.Company, r.User, r.NewProjectName)
			if err != nil {
				return err
			}
			t.Project = p.ID
			res.NewProject = p
		}
		checks := RefChecks{
			Parent:  r.ValidateReferences || r.Parent != "",
			Project: r.ValidateReferences || r.Project != "",
			Models:  r.ValidateReferences || len(r.InputModels) > 0 || (r.ExecutionOverrides != nil && r.ExecutionOverrides.Model != nil),
		}
		if err := Insert(ctx, d, q, r.Company, t, checks); err != nil {
			return err
		}
		res.ID = t.ID
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// cloneOf builds the new task: the source's definition with the request's
// replacements, and none of its run state.
func cloneOf(now jsonx.Time, src *store.Task, r CloneRequest) *store.Task {
	t := &store.Task{ID: ids.New(), Company: r.Company, User: r.User, Status: Created,
		Created: now, LastUpdate: now, LastChange: now, LastChangedBy: r.User,
		Name: src.Name, Comment: src.Comment, Type: src.Type, Project: src.Project,
		Tags: src.Tags, Script: src.Script, Container: src.Container, Hyperparams: src.Hyperparams,
		Configuration: src.Configuration, Execution: src.Execution}
	if r.Name != "" {
		t.Name = strings.TrimSpace(r.Name)
	}
	if r.Comment != "" {
		comment := r.Comment
		t.Comment = &comment
	}
	if len(r.Tags) > 0 {
		t.Tags = domain.SortedTags(r.Tags)
	}
	// seeds: new_task_system_tags is "empty when absent", the one
	// new_task_* field not taken from the original
	t.SystemTags = domain.SortedTags(r.SystemTags)
	switch {
	case r.Parent != "":
		t.Parent = r.Parent
	case src.Parent != "" && !strings.HasPrefix(src.Parent, DeletedPrefix):
		t.Parent = src.Parent
	default:
		t.Parent = src.ID
	}
	if r.Project != "" {
		t.Project = r.Project
	}
	if src.Output.Destination != nil {
		t.Output.Destination = src.Output.Destination
	}
	if len(r.Hyperparams) > 0 {
		t.Hyperparams = ToHyperparams(r.Hyperparams)
	}
	if len(r.Configuration) > 0 {
		t.Configuration = ToConfiguration(r.Configuration)
	}
	if len(r.Container) > 0 {
		t.Container = r.Container
	}
	t.Models.Input = src.Models.Input
	if len(r.InputModels) > 0 {
		t.Models.Input = ToModelItems(r.InputModels, now)
	}
	t.Normalize()
	if r.ExecutionOverrides != nil {
		o := *r.ExecutionOverrides
		if len(r.InputModels) > 0 {
			o.Model = nil
		}
		if len(r.Container) > 0 {
			o.DockerCmd = nil
		}
		o.ApplyTo(t, now)
	}
	t.Execution.Queue = ""
	t.Execution.Artifacts = InputArtifacts(t.Execution.Artifacts)
	t.Normalize()
	return t
}
