package tasks

import (
	"context"
	"maps"
	"slices"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/store"
)

// ListInput is one TasksQuery: the request and how to run it.
type ListInput struct {
	Company string
	Request *query.Request
	// Body is the raw request, for the query's entity-specific fields.
	Body []byte
	// Projects are the request's project filter; IncludeSubprojects widens
	// it to their subprojects.
	Projects           []string
	IncludeSubprojects bool
	SearchHidden       bool
	Ex, AllowPublic    bool
	// Convert turns stored documents into list items (the wire shape).
	Convert query.DocConverter
	// Fixed are conditions the caller sets ("field is one of values"),
	// replacing the request's own filter of those fields (reports).
	Fixed map[string][]string
}

// List runs a TasksQuery: the company's (and, when allowed, public) tasks,
// hidden ones only on request or by id, the project filter widened to
// subprojects when asked.
func List(ctx context.Context, env *domain.Env, in ListInput) (*query.Result, error) {
	opts := query.Options{Ex: in.Ex}
	widen := in.IncludeSubprojects && len(in.Projects) > 0 && !slices.Contains(in.Projects, "")
	if widen {
		opts.Skip = []string{"project"}
	}
	fixed := slices.Sorted(maps.Keys(in.Fixed))
	opts.Skip = append(opts.Skip, fixed...)
	plan, err := query.Build(env.DB.D, Schema, in.Request, in.Body, opts)
	if err != nil {
		return nil, err
	}
	plan.ConvertDocs(in.Convert)
	companies := []string{in.Company}
	if in.AllowPublic {
		companies = domain.Visible(in.Company)
	}
	plan.WhereIn("company", companies)
	for _, field := range fixed {
		plan.WhereIn(field, in.Fixed[field])
	}
	if !in.SearchHidden && len(in.Request.ID) == 0 {
		plan.Where(store.NotSystemTagged(env.DB.D), TagHidden)
	}
	if widen {
		tree, err := env.DB.LoadProjectTree(ctx, env.DB.Read(), domain.Visible(in.Company)...)
		if err != nil {
			return nil, err
		}
		plan.WhereIn("project", tree.WithDescendants(in.Projects))
	}
	return plan.Run(ctx, env.DB, "tasks", in.Company, RefTables)
}
