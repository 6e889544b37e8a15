package users

import (
	"context"
	"sort"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/store"
)

// ListOptions shape a users.get_all(_ex) read.
type ListOptions struct {
	Ex bool
	// ActiveIn, when not nil, keeps only users owning projects, tasks or
	// models in these projects (and their subprojects); empty means in
	// any project.
	ActiveIn []string
}

// List runs a list query over the users of company.
func List(ctx context.Context, env *domain.Env, company string, req *query.Request, body []byte, o ListOptions) (*query.Result, error) {
	plan, err := query.Build(env.DB.D, Schema, req, body, query.Options{Ex: o.Ex, Skip: []string{"active_in_projects"}})
	if err != nil {
		return nil, err
	}
	plan.WhereIn("company", []string{company})
	if o.ActiveIn != nil {
		active, err := ActiveUsers(ctx, env, company, o.ActiveIn, []string{"projects", "tasks", "models"})
		if err != nil {
			return nil, err
		}
		if len(active) == 0 {
			return &query.Result{Items: []map[string]any{}}, nil
		}
		plan.WhereIn("id", active)
	}
	return plan.Run(ctx, env.DB, "users", company, refTables)
}

// ActiveUsers lists the ids of the users owning rows of tables ("projects",
// "tasks", "models") of company in projects and their subprojects (no
// projects: anywhere), sorted.
func ActiveUsers(ctx context.Context, env *domain.Env, company string, projects []string, tables []string) ([]string, error) {
	var scope []string
	if len(projects) > 0 {
		tree, err := env.DB.LoadProjectTree(ctx, env.DB.Read(), domain.Visible(company)...)
		if err != nil {
			return nil, err
		}
		scope = tree.WithDescendants(projects)
	}
	seen := map[string]bool{}
	for _, t := range tables {
		ids, err := env.DB.Owners(ctx, store.OwnerScan{Table: t, Companies: []string{company}, Projects: scope})
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			if id != "" {
				seen[id] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for id := range seen {
		out = append(out, id)
	}
	sort.Strings(out)
	return out, nil
}

// IDName is a user as projects.get_user_names answers it.
type IDName struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// NamesInProjects names the users that created the tasks (or models, when
// models is set) of company in projects (with their subprojects when
// subprojects is set; no projects: anywhere), sorted by name.
func NamesInProjects(ctx context.Context, env *domain.Env, company string, projects []string, subprojects, models bool) ([]IDName, error) {
	table := "tasks"
	if models {
		table = "models"
	}
	var ids []string
	var err error
	if subprojects || len(projects) == 0 {
		ids, err = ActiveUsers(ctx, env, company, projects, []string{table})
	} else {
		ids, err = env.DB.Owners(ctx, store.OwnerScan{Table: table, Companies: []string{company}, Projects: projects})
	}
	if err != nil {
		return nil, err
	}
	names, err := env.DB.UserNames(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]IDName, 0, len(names))
	for id, name := range names {
		out = append(out, IDName{ID: id, Name: name})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}
