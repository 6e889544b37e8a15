package projects

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"sort"
	"strconv"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// The project operations that read tasks: parents, hyper parameter names
// and values, metric/variant pairs.

// Scope selects tasks (or models) by project.
type Scope struct {
	Company string
	// Projects are the project ids; none selects every task, or (with
	// EmptyMeansNone and no Subprojects) the tasks without a project.
	Projects       []string
	Subprojects    bool
	EmptyMeansNone bool
}

// docScan is the store scan of the scope's rows of table.
func (s Scope) docScan(ctx context.Context, env *domain.Env, table string, public bool) (store.DocScan, error) {
	ds := store.DocScan{Table: table, Companies: []string{s.Company}}
	if public {
		ds.Companies = domain.Visible(s.Company)
	}
	switch {
	case len(s.Projects) == 0 && (s.Subprojects || !s.EmptyMeansNone):
		ds.AllProjects = true
	case len(s.Projects) == 0:
		ds.NoProject = true
	case !s.Subprojects:
		ds.Projects = s.Projects
	default:
		tree, err := env.DB.LoadProjectTree(ctx, env.DB.Read(), domain.Visible(s.Company)...)
		if err != nil {
			return ds, err
		}
		ds.Projects = tree.WithDescendants(s.Projects)
	}
	return ds, nil
}

// TaskParent is a parent of tasks, with its project.
type TaskParent struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Project is {} when the parent has no project (seeds: an object).
	Project map[string]any `json:"project"`
}

// TaskParents lists the distinct parents of the scope's company tasks in
// the states given (see StatsStates) whose name matches nameRe ("" =
// any), sorted by name.
func TaskParents(ctx context.Context, env *domain.Env, s Scope, states []string, nameRe string) ([]TaskParent, error) {
	var re *regexp.Regexp
	if nameRe != "" {
		var err error
		if re, err = regexp.Compile(nameRe); err != nil {
			return nil, apierr.InvalidRegex("task_name", err.Error())
		}
	}
	ds, err := s.docScan(ctx, env, "tasks", false)
	if err != nil {
		return nil, err
	}
	ds.Archived, ds.WithParent = archivedFilter(states), true
	ids, err := env.DB.TaskParentIDs(ctx, ds)
	if err != nil {
		return nil, err
	}
	out := []TaskParent{}
	if len(ids) == 0 {
		return out, nil
	}
	parents, err := env.DB.Tasks().GetMany(ctx, env.DB.Read(), ids, domain.Visible(s.Company)...)
	if err != nil {
		return nil, err
	}
	tree, err := env.DB.LoadProjectTree(ctx, env.DB.Read(), domain.Visible(s.Company)...)
	if err != nil {
		return nil, err
	}
	for _, p := range parents {
		if re != nil && !re.MatchString(p.Name) {
			continue
		}
		tp := TaskParent{ID: p.ID, Name: p.Name, Project: map[string]any{}}
		if p.Project != "" {
			tp.Project["id"] = p.Project
			if n, ok := tree.Name[p.Project]; ok {
				tp.Project["name"] = n
			}
		}
		out = append(out, tp)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Page is a page of a paged read: number (from 0) and size.
type Page struct{ Number, Size int }

// NewPage reads page (default 0) and page_size (default 500).
func NewPage(page, size *int) (Page, error) {
	p := Page{Size: 500}
	if page != nil {
		if *page < 0 {
			return p, apierr.Validation("page", "must be at least 0, got %d", *page)
		}
		p.Number = *page
	}
	if size != nil {
		if *size < 1 {
			return p, apierr.Validation("page_size", "must be at least 1, got %d", *size)
		}
		p.Size = *size
	}
	return p, nil
}

func pageOf[T any](all []T, p Page) []T {
	from, to := p.bounds(len(all))
	return append([]T{}, all[from:to]...)
}

// bounds is the page's [from, to) among n items; a page number or size
// whose product overflows an int is past the end (a 500 before).
func (p Page) bounds(n int) (from, to int) {
	if p.Size <= 0 || p.Number > n/p.Size {
		return n, n
	}
	from = p.Number * p.Size
	return from, from + min(p.Size, n-from)
}

// SectionName is a hyper parameter's section and name.
type SectionName struct {
	Section string `json:"section"`
	Name    string `json:"name"`
}

// HyperParams is one page of hyper parameter names.
type HyperParams struct {
	Parameters       []SectionName
	Remaining, Total int
}

// HyperParameters lists the distinct (section, name) pairs of the
// hyper parameters of the scope's own and public tasks, sorted, one page.
func HyperParameters(ctx context.Context, env *domain.Env, s Scope, page Page) (*HyperParams, error) {
	ds, err := s.docScan(ctx, env, "tasks", true)
	if err != nil {
		return nil, err
	}
	names, err := env.DB.TaskParamNames(ctx, ds)
	if err != nil {
		return nil, err
	}
	seen := map[SectionName]bool{}
	for _, n := range names {
		seen[SectionName{n.Section, n.Name}] = true
	}
	items, total, remaining := sortedPage(seen, func(a, b SectionName) bool {
		if a.Section != b.Section {
			return a.Section < b.Section
		}
		return a.Name < b.Name
	}, page)
	return &HyperParams{Parameters: items, Total: total, Remaining: remaining}, nil
}

// HyperparamValues lists the distinct values of one hyper parameter of the
// scope's tasks (and public ones when public) matching pattern (case
// insensitive; "" = any), numbers in numeric order before other strings.
// It returns the total and one page.
func HyperparamValues(ctx context.Context, env *domain.Env, s Scope, public bool, section, name, pattern string, page Page) (int, []string, error) {
	var re *regexp.Regexp
	if pattern != "" {
		var err error
		if re, err = regexp.Compile("(?i)" + pattern); err != nil {
			return 0, nil, apierr.InvalidRegex("pattern", err.Error())
		}
	}
	ds, err := s.docScan(ctx, env, "tasks", public)
	if err != nil {
		return 0, nil, err
	}
	stored, err := env.DB.TaskParamValues(ctx, ds, section, name)
	if err != nil {
		return 0, nil, err
	}
	seen := map[string]bool{}
	for _, v := range stored {
		if re == nil || re.MatchString(v) {
			seen[v] = true
		}
	}
	values, total, _ := sortedPage(seen, numericLess, page)
	return total, values, nil
}

// numericLess orders numbers by value, before any other string, which
// compare as text.
func numericLess(a, b string) bool {
	fa, ea := strconv.ParseFloat(a, 64)
	fb, eb := strconv.ParseFloat(b, 64)
	switch {
	case ea == nil && eb == nil:
		if fa != fb {
			return fa < fb
		}
		return a < b
	case ea == nil:
		return true
	case eb == nil:
		return false
	}
	return a < b
}

// MetricVariant is a metric/variant pair of last_metrics with its keys.
type MetricVariant struct {
	Metric      string `json:"metric"`
	MetricHash  string `json:"metric_hash"`
	Variant     string `json:"variant"`
	VariantHash string `json:"variant_hash"`
}

// UniqueMetricVariants lists the metric/variant pairs in last_metrics of
// the scope's own and public tasks (models when models), optionally only
// of ids, sorted by metric and variant.
func UniqueMetricVariants(ctx context.Context, env *domain.Env, s Scope, models bool, ids []string) ([]MetricVariant, error) {
	table := "tasks"
	if models {
		table = "models"
	}
	ds, err := s.docScan(ctx, env, table, true)
	if err != nil {
		return nil, err
	}
	seen := map[[2]string]MetricVariant{}
	if !models && len(ids) == 0 {
		// The pairs of all the scope's tasks come from their index.
		pairs, err := env.DB.TaskMetricVariants(ctx, ds)
		if err != nil {
			return nil, err
		}
		for _, p := range pairs {
			seen[[2]string{p.Metric, p.Variant}] = MetricVariant{Metric: p.Metric, MetricHash: p.MetricHash, Variant: p.Variant, VariantHash: p.VariantHash}
		}
		return sortedMetricVariants(seen), nil
	}
	ds.IDs = ids
	ds.Member = []string{"last_metrics"}
	err = env.DB.ScanDocs(ctx, ds, func(doc []byte) error {
		var lastMetrics map[string]map[string]*struct {
			Metric  string `json:"metric"`
			Variant string `json:"variant"`
		}
		if err := json.Unmarshal(bytes.TrimSpace(doc), &lastMetrics); err != nil {
			return err
		}
		for mh, vs := range lastMetrics {
			for vh, v := range vs {
				if v == nil {
					continue
				}
				key := [2]string{v.Metric, v.Variant}
				if _, ok := seen[key]; !ok {
					seen[key] = MetricVariant{Metric: v.Metric, MetricHash: mh, Variant: v.Variant, VariantHash: vh}
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return sortedMetricVariants(seen), nil
}

// sortedMetricVariants lists the pairs sorted by metric and variant.
func sortedMetricVariants(seen map[[2]string]MetricVariant) []MetricVariant {
	out := make([]MetricVariant, 0, len(seen))
	for _, mv := range seen {
		out = append(out, mv)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Metric != b.Metric {
			return a.Metric < b.Metric
		}
		return a.Variant < b.Variant
	})
	return out
}

// MetricHash is the key last_metrics uses for a metric or variant name.
func MetricHash(name string) string {
	h := md5.Sum([]byte(name))
	return hex.EncodeToString(h[:])
}
