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
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

// The project operations that read tasks: parents, hyper parameter names
// and values, metric/variant pairs.

// projectScope selects tasks by project: ids (widened to descendants with
// subprojects); noProject selects tasks without a project.
type projectScope struct {
	ids       []string
	all       bool
	noProject bool
}

// scope builds the project scope of a request: no ids and subprojects =
// every task; no ids without subprojects = tasks with no project (for the
// single-project calls) or every task (multi-project calls).
func (s *service) scope(ctx context.Context, c *rpc.Call, ids []string, subprojects, emptyMeansNone bool) (projectScope, error) {
	if len(ids) == 0 {
		if subprojects || !emptyMeansNone {
			return projectScope{all: true}, nil
		}
		return projectScope{noProject: true}, nil
	}
	if !subprojects {
		return projectScope{ids: ids}, nil
	}
	tree, err := s.d.DB.LoadProjectTree(ctx, s.d.DB.Read(), domain.Visible(c.Company())...)
	if err != nil {
		return projectScope{}, err
	}
	return projectScope{ids: tree.WithDescendants(ids)}, nil
}

// where renders the scope as a condition on a tasks or models table.
func (p projectScope) where() (string, []any) {
	switch {
	case p.all:
		return "1=1", nil
	case p.noProject:
		return "project IS NULL", nil
	}
	return "project IN (" + store.Placeholders(len(p.ids)) + ")", store.Args(p.ids)
}

// loadDocs decodes the documents of the company's (and optionally public)
// rows of table in scope into fresh values made by mk.
func (s *service) loadDocs(ctx context.Context, company, table string, public bool, p projectScope, extra string, extraArgs []any, each func(doc []byte) error) error {
	where, args := p.where()
	companies := []string{company}
	if public {
		companies = domain.Visible(company)
	}
	q := "SELECT doc FROM " + table + " WHERE company IN (" + store.Placeholders(len(companies)) + ") AND " + where + extra
	rows, err := s.d.DB.Read().QueryContext(ctx, q, append(append(store.Args(companies), args...), extraArgs...)...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var doc []byte
		if err := rows.Scan(&doc); err != nil {
			return err
		}
		if err := each(doc); err != nil {
			return err
		}
	}
	return rows.Err()
}

type taskParentsRequest struct {
	Projects           []string        `json:"projects"`
	IncludeSubprojects *bool           `json:"include_subprojects"`
	TasksState         json.RawMessage `json:"tasks_state"`
	TaskName           string          `json:"task_name"`
}

type taskParent struct {
	ID      string         `json:"id"`
	Name    string         `json:"name"`
	Project map[string]any `json:"project"` // {} when the parent has no project (seeds: an object)
}

type taskParentsResponse struct {
	Parents []taskParent `json:"parents"`
}

// archivedCondition reads tasks_state: absent = active, null = all.
func (s *service) archivedCondition(raw json.RawMessage) (string, []any, error) {
	states, err := statsStates(raw)
	if err != nil {
		return "", nil, apierr.Validation("tasks_state", "must be active, archived or null")
	}
	if len(states) != 1 {
		return "", nil, nil
	}
	cond := " AND " + s.d.DB.D.ArrayHas("system_tags")
	if states[0] == "active" {
		cond = " AND NOT " + s.d.DB.D.ArrayHas("system_tags")
	}
	return cond, []any{"archived"}, nil
}

// getTaskParents lists the distinct parents of the tasks in the projects,
// sorted by name.
func (s *service) getTaskParents(ctx context.Context, c *rpc.Call, req *taskParentsRequest) (*taskParentsResponse, error) {
	sub := req.IncludeSubprojects == nil || *req.IncludeSubprojects
	scope, err := s.scope(ctx, c, req.Projects, sub, false)
	if err != nil {
		return nil, err
	}
	cond, condArgs, err := s.archivedCondition(req.TasksState)
	if err != nil {
		return nil, err
	}
	var nameRe *regexp.Regexp
	if req.TaskName != "" {
		if nameRe, err = regexp.Compile(req.TaskName); err != nil {
			return nil, apierr.InvalidRegex("task_name", err.Error())
		}
	}
	parentIDs := map[string]bool{}
	err = s.loadDocs(ctx, c.Company(), "tasks", false, scope, cond+" AND parent IS NOT NULL", condArgs, func(doc []byte) error {
		var t struct {
			Parent string `json:"parent"`
		}
		if err := json.Unmarshal(doc, &t); err != nil {
			return err
		}
		parentIDs[t.Parent] = true
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := &taskParentsResponse{Parents: []taskParent{}}
	if len(parentIDs) == 0 {
		return out, nil
	}
	ids := make([]string, 0, len(parentIDs))
	for id := range parentIDs {
		ids = append(ids, id)
	}
	parents, err := s.d.DB.Tasks().Select(ctx, s.d.DB.Read(), "company IN (?, '') AND id IN ("+store.Placeholders(len(ids))+")",
		append([]any{c.Company()}, store.Args(ids)...)...)
	if err != nil {
		return nil, err
	}
	tree, err := s.d.DB.LoadProjectTree(ctx, s.d.DB.Read(), domain.Visible(c.Company())...)
	if err != nil {
		return nil, err
	}
	for _, p := range parents {
		if nameRe != nil && !nameRe.MatchString(p.Name) {
			continue
		}
		tp := taskParent{ID: p.ID, Name: p.Name, Project: map[string]any{}}
		if p.Project != "" {
			tp.Project["id"] = p.Project
			if n, ok := tree.Name[p.Project]; ok {
				tp.Project["name"] = n
			}
		}
		out.Parents = append(out.Parents, tp)
	}
	sort.SliceStable(out.Parents, func(i, j int) bool { return out.Parents[i].Name < out.Parents[j].Name })
	return out, nil
}

type hyperParametersRequest struct {
	Project            string `json:"project"`
	IncludeSubprojects *bool  `json:"include_subprojects"`
	Page               *int   `json:"page"`
	PageSize           *int   `json:"page_size"`
}

// paging reads page (default 0) and page_size (default 500).
func paging(page, size *int) (int, int, error) {
	p, n := 0, 500
	if page != nil {
		if *page < 0 {
			return 0, 0, apierr.Validation("page", "must be at least 0, got %d", *page)
		}
		p = *page
	}
	if size != nil {
		if *size < 1 {
			return 0, 0, apierr.Validation("page_size", "must be at least 1, got %d", *size)
		}
		n = *size
	}
	return p, n, nil
}

type sectionName struct {
	Section string `json:"section"`
	Name    string `json:"name"`
}

type hyperParametersResponse struct {
	Parameters []sectionName `json:"parameters"`
	Remaining  int           `json:"remaining"`
	Total      int           `json:"total"`
}

// getHyperParameters lists the distinct (section, name) pairs of the
// tasks' hyper parameters, sorted, one page at a time.
func (s *service) getHyperParameters(ctx context.Context, c *rpc.Call, req *hyperParametersRequest) (*hyperParametersResponse, error) {
	page, size, err := paging(req.Page, req.PageSize)
	if err != nil {
		return nil, err
	}
	var ids []string
	if req.Project != "" {
		ids = []string{req.Project}
	}
	scope, err := s.scope(ctx, c, ids, req.IncludeSubprojects == nil || *req.IncludeSubprojects, true)
	if err != nil {
		return nil, err
	}
	seen := map[sectionName]bool{}
	err = s.loadDocs(ctx, c.Company(), "tasks", true, scope, "", nil, func(doc []byte) error {
		var t struct {
			Hyperparams map[string]map[string]json.RawMessage `json:"hyperparams"`
		}
		if err := json.Unmarshal(doc, &t); err != nil {
			return err
		}
		for sec, params := range t.Hyperparams {
			for name := range params {
				seen[sectionName{sec, name}] = true
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	all := make([]sectionName, 0, len(seen))
	for k := range seen {
		all = append(all, k)
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].Section != all[j].Section {
			return all[i].Section < all[j].Section
		}
		return all[i].Name < all[j].Name
	})
	pageItems := pageOf(all, page, size)
	return &hyperParametersResponse{Parameters: pageItems, Total: len(all), Remaining: max(0, len(all)-page*size-len(pageItems))}, nil
}

func pageOf[T any](all []T, page, size int) []T {
	from := min(page*size, len(all))
	to := min(from+size, len(all))
	return append([]T{}, all[from:to]...)
}

type hyperparamValuesRequest struct {
	Projects           []string `json:"projects"`
	Section            string   `json:"section" required:"true"`
	Name               string   `json:"name" required:"true"`
	AllowPublic        *bool    `json:"allow_public"`
	IncludeSubprojects *bool    `json:"include_subprojects"`
	Pattern            string   `json:"pattern"`
	Page               *int     `json:"page"`
	PageSize           *int     `json:"page_size"`
}

type hyperparamValuesResponse struct {
	Total  int      `json:"total"`
	Values []string `json:"values"`
}

// getHyperparamValues lists the distinct values of one hyper parameter,
// numbers in numeric order before other strings.
func (s *service) getHyperparamValues(ctx context.Context, c *rpc.Call, req *hyperparamValuesRequest) (*hyperparamValuesResponse, error) {
	page, size, err := paging(req.Page, req.PageSize)
	if err != nil {
		return nil, err
	}
	var re *regexp.Regexp
	if req.Pattern != "" {
		if re, err = regexp.Compile("(?i)" + req.Pattern); err != nil {
			return nil, apierr.InvalidRegex("pattern", err.Error())
		}
	}
	scope, err := s.scope(ctx, c, req.Projects, req.IncludeSubprojects == nil || *req.IncludeSubprojects, false)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	public := req.AllowPublic == nil || *req.AllowPublic
	err = s.loadDocs(ctx, c.Company(), "tasks", public, scope, "", nil, func(doc []byte) error {
		var t struct {
			Hyperparams map[string]map[string]*struct {
				Value *string `json:"value"`
			} `json:"hyperparams"`
		}
		if err := json.Unmarshal(doc, &t); err != nil {
			return err
		}
		if p := t.Hyperparams[req.Section][req.Name]; p != nil && p.Value != nil && (re == nil || re.MatchString(*p.Value)) {
			seen[*p.Value] = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	values := make([]string, 0, len(seen))
	for v := range seen {
		values = append(values, v)
	}
	sort.Slice(values, func(i, j int) bool { return numericLess(values[i], values[j]) })
	return &hyperparamValuesResponse{Total: len(values), Values: pageOf(values, page, size)}, nil
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

type uniqueMetricsRequest struct {
	Project            string   `json:"project"`
	IncludeSubprojects *bool    `json:"include_subprojects"`
	IDs                []string `json:"ids"`
	ModelMetrics       bool     `json:"model_metrics"`
}

type metricVariant struct {
	Metric      string `json:"metric"`
	MetricHash  string `json:"metric_hash"`
	Variant     string `json:"variant"`
	VariantHash string `json:"variant_hash"`
}

type uniqueMetricsResponse struct {
	Metrics []metricVariant `json:"metrics"`
}

// getUniqueMetricVariants lists the metric/variant pairs in last_metrics
// of the tasks (or models), sorted by metric and variant.
func (s *service) getUniqueMetricVariants(ctx context.Context, c *rpc.Call, req *uniqueMetricsRequest) (*uniqueMetricsResponse, error) {
	var ids []string
	if req.Project != "" {
		ids = []string{req.Project}
	}
	scope, err := s.scope(ctx, c, ids, req.IncludeSubprojects == nil || *req.IncludeSubprojects, true)
	if err != nil {
		return nil, err
	}
	table := "tasks"
	if req.ModelMetrics {
		table = "models"
	}
	extra, extraArgs := "", []any(nil)
	if len(req.IDs) > 0 {
		extra, extraArgs = " AND id IN ("+store.Placeholders(len(req.IDs))+")", store.Args(req.IDs)
	}
	seen := map[[2]string]metricVariant{}
	err = s.loadDocs(ctx, c.Company(), table, true, scope, extra, extraArgs, func(doc []byte) error {
		var t struct {
			LastMetrics map[string]map[string]*struct {
				Metric  string `json:"metric"`
				Variant string `json:"variant"`
			} `json:"last_metrics"`
		}
		if err := json.Unmarshal(bytes.TrimSpace(doc), &t); err != nil {
			return err
		}
		for mh, vs := range t.LastMetrics {
			for vh, v := range vs {
				if v == nil {
					continue
				}
				key := [2]string{v.Metric, v.Variant}
				if _, ok := seen[key]; !ok {
					seen[key] = metricVariant{Metric: v.Metric, MetricHash: mh, Variant: v.Variant, VariantHash: vh}
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := &uniqueMetricsResponse{Metrics: make([]metricVariant, 0, len(seen))}
	for _, mv := range seen {
		out.Metrics = append(out.Metrics, mv)
	}
	sort.Slice(out.Metrics, func(i, j int) bool {
		a, b := out.Metrics[i], out.Metrics[j]
		if a.Metric != b.Metric {
			return a.Metric < b.Metric
		}
		return a.Variant < b.Variant
	})
	return out, nil
}

// MetricHash is the key last_metrics uses for a metric or variant name.
func MetricHash(name string) string {
	h := md5.Sum([]byte(name))
	return hex.EncodeToString(h[:])
}
