package projects

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/tasks"
)

// The system tags and folder names of the projects that the web app's
// Datasets, Pipelines and Reports pages show: a dataset or pipeline is a
// project tagged so (kept under a hidden ".datasets" / ".pipelines"
// folder by the SDK), reports live in hidden ".reports" projects.
const (
	DatasetTag      = "dataset"
	PipelineTag     = "pipeline"
	ReportsTag      = "reports"
	DatasetsFolder  = ".datasets"
	PipelinesFolder = ".pipelines"
	ReportsFolder   = ".reports"
	// HiddenTag is the system tag of records lists leave out unless asked.
	HiddenTag = hiddenTag
)

// Children types of projects.get_all_ex.
const (
	ChildrenDataset  = "dataset"
	ChildrenPipeline = "pipeline"
	ChildrenReport   = "report"
)

// Task types the children views count.
const (
	typeController = "controller"
	typeReport     = "report"
)

// ChildrenFilter is children_type with its tag filters: the list keeps
// only projects holding such children (and their ancestors), and the
// statistics count only such children.
type ChildrenFilter struct {
	Type string
	// Tags is children_tags (list syntax); TagsFilter children_tags_filter
	// ({any, all} form). Raw JSON, either may be empty.
	Tags, TagsFilter json.RawMessage
}

// ValidChildrenType refuses an unknown children_type.
func ValidChildrenType(t string) error {
	switch t {
	case "", ChildrenDataset, ChildrenPipeline, ChildrenReport:
		return nil
	}
	return apierr.Validation("children_type", "must be dataset, pipeline or report, got %q", t)
}

// tagCond compiles the filter's tag condition over a table's tags column.
func (f ChildrenFilter) tagCond(d store.Dialect) (string, []any, error) {
	schema := query.TagsSchema("project")
	if len(f.TagsFilter) > 0 && !isNull(f.TagsFilter) {
		return query.FieldFilter(d, schema, "tags", f.TagsFilter)
	}
	if len(f.Tags) > 0 && !isNull(f.Tags) {
		return query.ListFilter(d, schema, "tags", f.Tags)
	}
	return "", nil, nil
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

// taskScope is the task rows the statistics of the children type count:
// pipeline controllers or reports; nil for datasets and no type.
func (f ChildrenFilter) taskScope(d store.Dialect) (*store.ContentScope, error) {
	var s store.ContentScope
	switch f.Type {
	case ChildrenPipeline:
		s.SystemTag, s.Types = PipelineTag, []string{typeController}
	case ChildrenReport:
		s.SystemTag, s.Types = ReportsTag, []string{typeReport}
	default:
		return nil, nil
	}
	var err error
	s.Cond, s.CondArgs, err = f.tagCond(d)
	return &s, err
}

// selectWithChildren lists the projects holding children of the filter's
// type (dataset and pipeline projects themselves, the projects of
// reports) with all their ancestors, limited to requested (and the
// projects under them) when given.
func selectWithChildren(ctx context.Context, env *domain.Env, companies, users, requested []string, f ChildrenFilter) ([]string, error) {
	db := env.DB
	q := db.Read()
	tree, err := db.LoadProjectTree(ctx, q, companies...)
	if err != nil {
		return nil, err
	}
	s := store.ContentScope{Companies: companies, Users: users}
	if s.Cond, s.CondArgs, err = f.tagCond(db.D); err != nil {
		return nil, err
	}
	if len(requested) > 0 {
		s.Projects = tree.WithDescendants(requested)
	}
	var found []string
	switch f.Type {
	case ChildrenDataset, ChildrenPipeline:
		s.SystemTag, s.ExcludeBasename = DatasetTag, DatasetsFolder
		if f.Type == ChildrenPipeline {
			s.SystemTag, s.ExcludeBasename = PipelineTag, PipelinesFolder
		}
		list, err := db.ScopedProjects(ctx, q, s)
		if err != nil {
			return nil, err
		}
		for _, p := range list {
			found = append(found, p.ID)
		}
	default:
		s.SystemTag = ReportsTag
		if found, err = db.TaskProjects(ctx, q, s); err != nil {
			return nil, err
		}
	}
	return withAncestors(tree, found), nil
}

// withAncestors returns ids and every ancestor of them, once each.
func withAncestors(tree *store.ProjectTree, ids []string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, id := range ids {
		for x := id; x != "" && !seen[x]; x = tree.Parent[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// statsFilterScope compiles include_stats_filter ({field: list filter or
// {any, all} filter} over task fields) into the task rows statistics
// count; nil when empty.
func statsFilterScope(d store.Dialect, filter map[string]json.RawMessage) (*store.ContentScope, error) {
	if len(filter) == 0 {
		return nil, nil
	}
	s := &store.ContentScope{}
	var conds []string
	for _, field := range slices.Sorted(maps.Keys(filter)) {
		name := "include_stats_filter." + field
		if !validFieldPath(field) {
			return nil, apierr.Validation(name, "not a field name")
		}
		raw := bytes.TrimSpace(filter[field])
		var cond string
		var args []any
		var err error
		if len(raw) > 0 && raw[0] == '{' {
			cond, args, err = query.FieldFilter(d, tasks.Schema, field, raw)
		} else {
			cond, args, err = query.ListFilter(d, tasks.Schema, field, raw)
		}
		if err != nil {
			return nil, err
		}
		if cond != "" {
			conds = append(conds, "("+cond+")")
			s.CondArgs = append(s.CondArgs, args...)
		}
	}
	s.Cond = strings.Join(conds, " AND ")
	return s, nil
}

// validFieldPath accepts dotted names of letters, digits and underscores.
func validFieldPath(f string) bool {
	if f == "" || len(f) > 200 {
		return false
	}
	for _, r := range f {
		if !(r == '_' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
