package reports

import (
	"context"
	"path"
	"sort"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/projects"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/tasks"
)

// ListInput is a reports.get_all_ex: a TasksQuery over reports.
type ListInput struct {
	Company string
	Request *query.Request
	Body    []byte
	// ProjectGiven says the request filters by project: Projects are
	// project ids ("" = the root), each standing for the reports folder
	// under it (or itself when it is one).
	ProjectGiven       bool
	Projects           []string
	IncludeSubprojects bool
	AllowPublic        bool
}

// List lists reports (hidden tasks included: every report is hidden).
func List(ctx context.Context, env *domain.Env, in ListInput) (*query.Result, error) {
	fixed := map[string][]string{"type": {TaskType}}
	if in.ProjectGiven {
		folders, err := foldersOf(ctx, env, in.Company, in.Projects, in.IncludeSubprojects)
		if err != nil {
			return nil, err
		}
		if len(folders) == 0 {
			return &query.Result{Items: []map[string]any{}}, nil
		}
		fixed["project"] = folders
	}
	return tasks.List(ctx, env, tasks.ListInput{Company: in.Company, Request: in.Request, Body: in.Body,
		SearchHidden: true, Ex: true, AllowPublic: in.AllowPublic, Fixed: fixed})
}

// foldersOf finds the reports folders of projects: those directly under
// one of them, and those that are one of them. "" stands for the root.
func foldersOf(ctx context.Context, env *domain.Env, company string, ids []string, withSubprojects bool) ([]string, error) {
	tree, err := env.DB.LoadProjectTree(ctx, env.DB.Read(), domain.Visible(company)...)
	if err != nil {
		return nil, err
	}
	if withSubprojects {
		var named []string
		root := false
		for _, id := range ids {
			if id == "" {
				root = true
			} else {
				named = append(named, id)
			}
		}
		ids = tree.WithDescendants(named)
		if root {
			ids = append(ids, "")
		}
	}
	wanted := map[string]bool{}
	for _, id := range ids {
		wanted[id] = true
	}
	out := []string{}
	for id, name := range tree.Name {
		if path.Base(name) == projects.ReportsFolder && (wanted[id] || wanted[tree.Parent[id]]) {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out, nil
}

// Tags lists the tags of the company's reports.
func Tags(ctx context.Context, env *domain.Env, company string) ([]string, error) {
	return env.DB.TaskTagsOfType(ctx, company, TaskType)
}
