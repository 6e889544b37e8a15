// Package organization holds the company-wide reads that span entities:
// the counts the web app's dashboard search shows per entity kind.
package organization

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"

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
var Kinds = []string{"projects", "tasks", "models", "pipelines", "pipeline_runs", "datasets", "dataset_versions", "reports"}

// kind says how one entity kind is counted.
type kind struct {
	table  string
	schema *query.Schema
	// project kinds are projects; the others records inside projects.
	project bool
	// hideHidden leaves out hidden records unless search_hidden.
	hideHidden bool
	// taskType keeps the tasks of this type only (the query's own type
	// is ignored), searching the subprojects of the projects it names.
	taskType string
}

var kinds = map[string]kind{
	"projects":  {table: "projects", schema: projects.Schema, project: true, hideHidden: true},
	"tasks":     {table: "tasks", schema: tasks.Schema, hideHidden: true},
	"models":    {table: "models", schema: models.Schema},
	"pipelines": {table: "projects", schema: projects.Schema, project: true},
	"datasets":  {table: "projects", schema: projects.Schema, project: true},
	"reports":   {table: "tasks", schema: tasks.Schema, taskType: "report"},
	// pipeline_runs and dataset_versions (2.34): the runs of pipeline
	// controllers and the versions of datasets are tasks of these types.
	"pipeline_runs":    {table: "tasks", schema: tasks.Schema, taskType: "controller"},
	"dataset_versions": {table: "tasks", schema: tasks.Schema, taskType: "data_processing"},
}

// CountInput is an organization.get_entities_count: a list query per
// kind asked (raw JSON objects), and what applies to all of them.
type CountInput struct {
	Company      string
	Queries      map[string]json.RawMessage
	ActiveUsers  []string
	SearchHidden bool
	AllowPublic  bool
	// Limit (2.33), when above 0, caps each count.
	Limit int
	// KeepErrors (2.34) reports a kind whose query is refused in Errors
	// instead of failing the whole read.
	KeepErrors bool
}

// Counts are the counts per kind, and with KeepErrors the message of each
// kind whose query was refused.
type Counts struct {
	Counts map[string]int
	Errors map[string]string
}

// CountEntities counts, per kind asked, the records its query matches.
// With ActiveUsers, projects count only when these users have records in
// them, and other records only when these users created them.
func CountEntities(ctx context.Context, env *domain.Env, in CountInput) (*Counts, error) {
	out := &Counts{Counts: map[string]int{}}
	for _, name := range Kinds {
		body, ok := in.Queries[name]
		if !ok || len(body) == 0 || bytes.Equal(bytes.TrimSpace(body), []byte("null")) {
			continue
		}
		n, err := countKind(ctx, env, in, name, body)
		if err != nil {
			var apiErr *apierr.Error
			if !in.KeepErrors || !errors.As(err, &apiErr) {
				return nil, err
			}
			if out.Errors == nil {
				out.Errors = map[string]string{}
			}
			out.Errors[name] = apiErr.Error()
			continue
		}
		if in.Limit > 0 && n > in.Limit {
			n = in.Limit
		}
		out.Counts[name] = n
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
	if k.taskType != "" && len(keys.Project) > 0 {
		var list query.StringList
		if json.Unmarshal(keys.Project, &list) != nil {
			return 0, apierr.Validation(name+".project", "expected project ids")
		}
		skip, projectIDs = []string{"project", "type"}, list
	} else if k.taskType != "" {
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
	if k.taskType != "" {
		plan.WhereIn("type", []string{k.taskType})
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
