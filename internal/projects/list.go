package projects

import (
	"context"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/limits"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/store"
)

// hiddenTag is the system tag of projects lists leave out unless asked.
const hiddenTag = "hidden"

// ListInput is a projects.get_all or get_all_ex read.
type ListInput struct {
	Company string
	Request *query.Request
	// Body is the raw request, for the query's own fields.
	Body []byte
	// Ex is get_all_ex (names of referenced records, its field rules).
	Ex            bool
	AllowPublic   bool
	Parent        []string
	ShallowSearch bool
	// ActiveUsers limits the list to projects holding records of these
	// users, and their ancestors.
	ActiveUsers []string
	Stats       StatsOptions
	// Children keeps only projects holding children of a type (datasets,
	// pipelines, reports) and counts only those in the statistics.
	Children ChildrenFilter
	// DatasetStats adds dataset_stats: the file count and size of the
	// project's latest dataset version.
	DatasetStats bool
	// Convert, when set, turns stored documents into list items.
	Convert query.DocConverter
}

// listSkip are the request fields the hierarchy rules read, not the query.
var listSkip = []string{"parent", "shallow_search", "include_stats", "stats_for_state", "stats_with_children",
	"check_own_contents", "non_public", "active_users", "children_type", "children_tags", "include_stats_filter",
	"include_dataset_stats", "children_tags_filter", "user", "company"}

// List runs a projects list query with the hierarchy rules, adding
// statistics when asked.
func List(ctx context.Context, env *domain.Env, in ListInput) (*query.Result, error) {
	plan, err := query.Build(env.DB.D, Schema, in.Request, in.Body, query.Options{Ex: in.Ex, Skip: listSkip})
	if err != nil {
		return nil, err
	}
	plan.WhereIn("company", domain.Readable(in.Company, in.AllowPublic))
	if !in.Request.SearchHidden && len(in.Request.ID) == 0 {
		plan.Where(store.NotSystemTagged(env.DB.D), hiddenTag)
	}
	if len(in.Parent) > limits.FilterValues {
		// Each parent is one condition on the path array: SQLite refuses
		// the expression tree of a thousand.
		return nil, limits.TooMany("parent", len(in.Parent), limits.FilterValues)
	}
	switch {
	case len(in.Parent) > 0 && in.ShallowSearch:
		plan.WhereIn("parent", in.Parent)
	case len(in.Parent) > 0:
		plan.WhereIn("path", in.Parent)
	case in.ShallowSearch:
		plan.Where("parent IS NULL")
	}
	var selected []string
	switch {
	case in.Children.Type != "":
		ids, err := selectWithChildren(ctx, env, domain.Readable(in.Company, in.AllowPublic), in.ActiveUsers, in.Request.ID, in.Children)
		if err != nil {
			return nil, err
		}
		plan.WhereIn("id", noneIfEmpty(ids))
		selected = ids
	case len(in.ActiveUsers) > 0:
		ids, err := ActiveUserProjects(ctx, env, in.Company, in.ActiveUsers)
		if err != nil {
			return nil, err
		}
		plan.WhereIn("id", noneIfEmpty(ids))
	}
	plan.ConvertDocs(in.Convert)
	res, err := plan.Run(ctx, env.DB, "projects", in.Company, refTables)
	if err != nil {
		return nil, err
	}
	o := in.Stats
	o.Children, o.Allowed = in.Children, selected
	if err := addStats(ctx, env, in.Company, res.Items, o, in.Request.SearchHidden); err != nil {
		return nil, err
	}
	if in.DatasetStats {
		if err := addDatasetStats(ctx, env, in.Company, res.Items); err != nil {
			return nil, err
		}
	}
	if in.Ex && in.Request.SearchHidden {
		for _, it := range res.Items {
			if list, _ := it["system_tags"].([]any); containsAny(list, hiddenTag) {
				it["hidden"] = true
			}
		}
	}
	return res, nil
}

// ActiveUserProjects lists projects holding tasks or models of the users,
// plus their ancestors.
func ActiveUserProjects(ctx context.Context, env *domain.Env, company string, users []string) ([]string, error) {
	ids, err := env.DB.ProjectsOfUsers(ctx, company, users)
	if err != nil {
		return nil, err
	}
	tree, err := env.DB.LoadProjectTree(ctx, env.DB.Read(), company)
	if err != nil {
		return nil, err
	}
	return withAncestors(tree, ids), nil
}

// noneIfEmpty stands an id no project has for an empty selection, so the
// list still runs and answers its paging fields (scroll_id) with no item.
func noneIfEmpty(ids []string) []string {
	if len(ids) == 0 {
		return []string{""}
	}
	return ids
}

func containsAny(list []any, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
