// Package organization holds the company-wide reads that span entities:
// the counts the web app's dashboard search shows per entity kind.
package organization

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/models"
	"github.com/trove-ml/trove/internal/projects"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/tasks"
)

// Kinds are the entity kinds organization.get_entities_count counts, in
// the answer's order.
var Kinds = []string{"projects", "tasks", "models", "pipelines", "datasets", "reports"}

// kind says how one entity kind is counted.
type kind struct {
	table  string
	schema *query.Schema
	// project kinds are projects; the others records inside projects.
	project bool
	// hideHidden leaves out hidden records unless search_hidden.
	hideHidden bool
	// reportsOnly keeps tasks of type report, searching subprojects.
	reportsOnly bool
}

var kinds = map[string]kind{
	"projects":  {table: "projects", schema: projects.Schema, project: true, hideHidden: true},
	"tasks":     {table: "tasks", schema: tasks.Schema, hideHidden: true},
	"models":    {table: "models", schema: models.Schema},
	"pipelines": {table: "projects", schema: projects.Schema, project: true},
	"datasets":  {table: "projects", schema: projects.Schema, project: true},
	"reports":   {table: "tasks", schema: tasks.Schema, reportsOnly: true},
}

// CountInput is an organization.get_entities_count: a list query per
// kind asked (raw JSON objects), and what applies to all of them.
type CountInput struct {
	Company      string
	Queries      map[string]json.RawMessage
	ActiveUsers  []string
	SearchHidden bool
	AllowPublic  bool
}

// CountEntities counts, per kind asked, the records its query matches.
// With ActiveUsers, projects count only when these users have records in
// them, and other records only when these users created them.
func CountEntities(ctx context.Context, env *domain.Env, in CountInput) (map[string]int, error) {
	out := map[string]int{}
	for _, name := range Kinds {
		body, ok := in.Queries[name]
		if !ok || len(body) == 0 || bytes.Equal(bytes.TrimSpace(body), []byte("null")) {
			continue
		}
		n, err := countKind(ctx, env, in, name, body)
		if err != nil {
			return nil, err
		}
		out[name] = n
	}
	return out, nil
}

// queryKeys are the keys a kind's query has beyond query.Request.
type queryKeys struct {
	User    json.RawMessage `json:"user"`
	Project json.RawMessage `json:"project"`
}

func countKind(ctx context.Context, env *domain.Env, in CountInput, name string, body json.RawMessage) (int, error) {
	k := kinds[name]
	var req query.Request
	var keys queryKeys
	if err := json.Unmarshal(body, &req); err != nil {
		return 0, apierr.Validation(name, "expected a list query object: %s", err.Error())
	}
	_ = json.Unmarshal(body, &keys)
	var skip []string
	var projectIDs []string
	if k.reportsOnly && len(keys.Project) > 0 {
		var list query.StringList
		if json.Unmarshal(keys.Project, &list) != nil {
			return 0, apierr.Validation(name+".project", "expected project ids")
		}
		skip, projectIDs = []string{"project", "type"}, list
	} else if k.reportsOnly {
		skip = []string{"type"}
	}
	plan, err := query.Build(env.DB.D, k.schema, &req, body, query.Options{Skip: skip})
	if err != nil {
		return 0, err
	}
	plan.WhereIn("company", domain.Readable(in.Company, in.AllowPublic))
	if k.hideHidden && !in.SearchHidden {
		plan.Where(store.NotSystemTagged(env.DB.D), tasks.TagHidden)
	}
	if k.reportsOnly {
		plan.WhereIn("type", []string{"report"})
		if projectIDs != nil {
			tree, err := env.DB.LoadProjectTree(ctx, env.DB.Read(), domain.Visible(in.Company)...)
			if err != nil {
				return 0, err
			}
			plan.WhereIn("project", tree.WithDescendants(projectIDs))
		}
	}
	if len(in.ActiveUsers) > 0 {
		if k.project {
			ids, err := projects.ActiveUserProjects(ctx, env, in.Company, in.ActiveUsers)
			if err != nil || len(ids) == 0 {
				return 0, err
			}
			plan.WhereIn("id", ids)
		} else if len(keys.User) == 0 {
			plan.WhereIn("user", in.ActiveUsers)
		}
	}
	return plan.Count(ctx, env.DB, k.table)
}
