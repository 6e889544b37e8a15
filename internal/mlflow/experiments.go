package mlflow

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/projects"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/store"
)

// DefaultID and DefaultName are MLflow's Default experiment: the root
// project "Default" of the company, made on first use.
const (
	DefaultID   = "0"
	DefaultName = "Default"
)

// Lifecycle stages.
const (
	Active  = "active"
	Deleted = "deleted"
)

// tagArchived marks a deleted experiment (project) or run (task).
const tagArchived = "archived"

// tagHidden marks projects the ClearML UI hides (datasets, pipelines).
const tagHidden = "hidden"

// Bounds of names and tags.
const (
	MaxNameLen     = 500
	MaxTagKeyLen   = 250
	MaxTagValueLen = 8000
	MaxParamValLen = 6000
	MaxExpResults  = 50000
	MaxRunResults  = 50000
)

// Experiment is an experiment as MLflow answers it.
type Experiment struct {
	ID               string
	Name             string
	ArtifactLocation string
	LifecycleStage   string
	Created          int64
	LastUpdate       int64
	Tags             map[string]string
}

// ExperimentID is the MLflow id of a project.
func ExperimentID(p *store.Project) string {
	if p.Name == DefaultName && p.Parent == "" {
		return DefaultID
	}
	return p.ID
}

// ExperimentOf converts a project.
func ExperimentOf(p *store.Project) *Experiment {
	e := &Experiment{ID: ExperimentID(p), Name: p.Name, LifecycleStage: Active,
		Created: p.Created.Millis(), LastUpdate: p.LastUpdate.Millis(), Tags: map[string]string{}}
	if domain.HasTag(p.SystemTags, tagArchived) {
		e.LifecycleStage = Deleted
	}
	if m := p.MLflow; m != nil {
		if m.Name != "" {
			e.Name = m.Name
		}
		e.ArtifactLocation = m.ArtifactLocation
		for k, v := range m.Tags {
			e.Tags[k] = v
		}
	}
	if e.ArtifactLocation == "" {
		e.ArtifactLocation = "mlflow-artifacts:/" + e.ID
	}
	if p.Description != "" {
		if _, ok := e.Tags["mlflow.note.content"]; !ok {
			e.Tags["mlflow.note.content"] = p.Description
		}
	}
	return e
}

// holderFolder holds the projects of experiments whose names the project
// rules refuse.
const holderFolder = "MLflow"

// projectName is the project name that holds experiment name: the name
// itself when the project rules take it, else under "MLflow/".
func projectName(name string) string {
	segs := store.SplitProjectName(name)
	full := strings.Join(segs, "/")
	ok := len(segs) > 0 && len(segs) <= projects.MaxDepth && len([]rune(full)) >= projects.MinBasenameLength
	if ok {
		if base := segs[len(segs)-1]; len([]rune(base)) < projects.MinBasenameLength {
			ok = false
		}
	}
	if ok {
		return full
	}
	return holderFolder + "/" + strings.ReplaceAll(strings.TrimSpace(name), "/", "_") + "___"[:max(0, 3-len([]rune(strings.TrimSpace(name))))]
}

func checkName(name string) error {
	if strings.TrimSpace(name) == "" {
		return apierr.MLflowInvalidParameter("Invalid experiment name: '%s'", name)
	}
	if len(name) > MaxNameLen {
		return apierr.MLflowInvalidParameter("Experiment name '%s' had length %d, which exceeded length limit of %d", name[:50]+"...", len(name), MaxNameLen)
	}
	return nil
}

// CheckTag validates a tag's key and value.
func CheckTag(key, value string) error {
	if err := checkKey("tag", key, MaxTagKeyLen); err != nil {
		return err
	}
	if len(value) > MaxTagValueLen {
		return apierr.MLflowInvalidParameter("Tag value '%s' had length %d, which exceeded length limit of %d", value[:50]+"...", len(value), MaxTagValueLen)
	}
	return nil
}

// checkKey validates a metric, param or tag key: non-empty, bounded, no
// path tricks (MLflow's rule: no "..", no leading "/").
func checkKey(what, key string, limit int) error {
	if key == "" {
		return apierr.MLflowInvalidParameter("Invalid %s name: ''. Names may be treated as files in certain cases, and must not resolve to other names when treated as such. This name would resolve to '.'", what)
	}
	if len(key) > limit {
		return apierr.MLflowInvalidParameter("%s name '%s' had length %d, which exceeded length limit of %d", strings.ToUpper(what[:1])+what[1:], key[:50]+"...", len(key), limit)
	}
	if strings.HasPrefix(key, "/") || key == "." || key == ".." || strings.Contains(key, "../") || strings.HasSuffix(key, "/..") {
		return apierr.MLflowInvalidParameter("Invalid %s name: '%s'. Names may be treated as files in certain cases, and must not resolve to other names when treated as such.", what, key)
	}
	return nil
}

// CreateExperiment creates an experiment (a project) and returns its id.
func CreateExperiment(ctx context.Context, env *domain.Env, company, user, name, artifactLocation string, tags map[string]string) (string, error) {
	if err := checkName(name); err != nil {
		return "", err
	}
	for k, v := range tags {
		if err := CheckTag(k, v); err != nil {
			return "", err
		}
	}
	var id string
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		pname := projectName(name)
		found, err := env.DB.ExperimentsByName(ctx, q, company, name, pname)
		if err != nil {
			return err
		}
		if len(found) > 0 {
			return apierr.MLflowAlreadyExists("Experiment '%s' already exists.", name)
		}
		if _, err := env.DB.ProjectByName(ctx, q, pname, company); err == nil {
			return apierr.MLflowAlreadyExists("Experiment '%s' already exists (a project holds its name).", name)
		} else if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		p, err := projects.EnsureByName(ctx, env, q, company, user, pname)
		if err != nil {
			return err
		}
		p.MLflow = &store.MLflowExperiment{Name: name, ArtifactLocation: artifactLocation, Tags: copyTags(tags)}
		id = ExperimentID(p)
		return env.DB.Projects().Update(ctx, q, p)
	})
	return id, err
}

func copyTags(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// loadProject reads the project of experiment id (the Default one made
// when create and absent).
func loadProject(ctx context.Context, env *domain.Env, q store.Querier, company, user, id string, create, lock bool) (*store.Project, error) {
	if id == DefaultID {
		p, err := env.DB.ProjectByName(ctx, q, DefaultName, company)
		if err == nil {
			return p, nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
		if !create {
			return nil, nil
		}
		return projects.EnsureByName(ctx, env, q, company, user, DefaultName)
	}
	if id == "" {
		return nil, apierr.MLflowInvalidParameter("Missing value for required parameter 'experiment_id'.")
	}
	get := env.DB.Projects().Get
	if lock {
		get = env.DB.Projects().GetForUpdate
	}
	p, err := get(ctx, q, id, company)
	if errors.Is(err, store.ErrNotFound) {
		return nil, apierr.MLflowNotFound("No Experiment with id=%s exists", id)
	}
	return p, err
}

// GetExperiment reads experiment id.
func GetExperiment(ctx context.Context, env *domain.Env, company, id string) (*Experiment, error) {
	p, err := loadProject(ctx, env, env.DB.Read(), company, "", id, false, false)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return defaultExperiment(env), nil
	}
	return ExperimentOf(p), nil
}

func defaultExperiment(env *domain.Env) *Experiment {
	now := env.Time().Millis()
	return &Experiment{ID: DefaultID, Name: DefaultName, ArtifactLocation: "mlflow-artifacts:/0", LifecycleStage: Active,
		Created: now, LastUpdate: now, Tags: map[string]string{}}
}

// GetExperimentByName reads the experiment named name.
func GetExperimentByName(ctx context.Context, env *domain.Env, company, name string) (*Experiment, error) {
	found, err := env.DB.ExperimentsByName(ctx, env.DB.Read(), company, name, projectName(name))
	if err != nil {
		return nil, err
	}
	if len(found) == 0 {
		if name == DefaultName {
			return defaultExperiment(env), nil
		}
		return nil, apierr.MLflowNotFound("Could not find experiment with name '%s'", name)
	}
	return ExperimentOf(found[0]), nil
}

// editProject runs edit on experiment id's project in a transaction.
func editProject(ctx context.Context, env *domain.Env, company, user, id string, edit func(q store.Querier, p *store.Project) error) error {
	return env.DB.Tx(ctx, func(q store.Querier) error {
		p, err := loadProject(ctx, env, q, company, user, id, true, true)
		if err != nil {
			return err
		}
		if err := edit(q, p); err != nil {
			return err
		}
		p.LastUpdate = env.Time()
		return env.DB.Projects().Update(ctx, q, p)
	})
}

// RenameExperiment gives experiment id a new name.
func RenameExperiment(ctx context.Context, env *domain.Env, company, user, id, name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	if id == DefaultID {
		return apierr.MLflowInvalidParameter("The Default experiment (id 0) cannot be renamed")
	}
	found, err := env.DB.ExperimentsByName(ctx, env.DB.Read(), company, name, projectName(name))
	if err != nil {
		return err
	}
	for _, p := range found {
		if p.ID != id {
			return apierr.MLflowAlreadyExists("Experiment '%s' already exists.", name)
		}
	}
	p, err := loadProject(ctx, env, env.DB.Read(), company, user, id, false, false)
	if err != nil {
		return err
	}
	if domain.HasTag(p.SystemTags, tagArchived) {
		return apierr.MLflowInvalidParameter("Cannot rename a non-active experiment.")
	}
	pname := projectName(name)
	if pname != p.Name {
		oldSegs, newSegs := store.SplitProjectName(p.Name), store.SplitProjectName(pname)
		// A project rename keeps its parent; a name elsewhere keeps the
		// project name and answers the new name from the document.
		if strings.Join(oldSegs[:len(oldSegs)-1], "/") == strings.Join(newSegs[:len(newSegs)-1], "/") {
			if _, err := projects.Update(ctx, env, company, id, projects.Patch{Name: &pname}); err != nil {
				return err
			}
		}
	}
	return editProject(ctx, env, company, user, id, func(_ store.Querier, p *store.Project) error {
		if p.MLflow == nil {
			p.MLflow = &store.MLflowExperiment{}
		}
		p.MLflow.Name = name
		return nil
	})
}

// SetExperimentLifecycle deletes (archives) or restores experiment id.
func SetExperimentLifecycle(ctx context.Context, env *domain.Env, company, user, id string, deleted bool) error {
	if id == DefaultID && deleted {
		return apierr.MLflowInvalidParameter("Cannot delete the default experiment '0'. This is an internally reserved experiment.")
	}
	return editProject(ctx, env, company, user, id, func(_ store.Querier, p *store.Project) error {
		p.SystemTags = domain.WithoutTag(p.SystemTags, tagArchived)
		if deleted {
			p.SystemTags = domain.SortedTags(append(p.SystemTags, tagArchived))
		}
		return nil
	})
}

// SetExperimentTag sets (or with del, removes) one tag of experiment id.
func SetExperimentTag(ctx context.Context, env *domain.Env, company, user, id, key, value string, del bool) error {
	if err := CheckTag(key, value); err != nil {
		return err
	}
	return editProject(ctx, env, company, user, id, func(_ store.Querier, p *store.Project) error {
		if domain.HasTag(p.SystemTags, tagArchived) {
			return apierr.MLflowInvalidParameter("The experiment %s must be in the 'active' state. Current state is deleted.", id)
		}
		if p.MLflow == nil {
			p.MLflow = &store.MLflowExperiment{}
		}
		if del {
			if _, ok := p.MLflow.Tags[key]; !ok {
				return apierr.MLflowNotFound("No tag with name: %s in experiment with id %s", key, id)
			}
			delete(p.MLflow.Tags, key)
			return nil
		}
		if p.MLflow.Tags == nil {
			p.MLflow.Tags = map[string]string{}
		}
		p.MLflow.Tags[key] = value
		return nil
	})
}

// View types of searches.
const (
	ViewActive  = 1
	ViewDeleted = 2
	ViewAll     = 3
)

// ParseViewType reads a view_type (name or number; "" = active only).
func ParseViewType(v string) (int, error) {
	switch strings.ToUpper(v) {
	case "", "ACTIVE_ONLY", "1":
		return ViewActive, nil
	case "DELETED_ONLY", "2":
		return ViewDeleted, nil
	case "ALL", "3":
		return ViewAll, nil
	}
	return 0, apierr.MLflowInvalidParameter("Invalid value '%s' for parameter 'view_type': it must be ACTIVE_ONLY, DELETED_ONLY or ALL", v)
}

// Page is a search's position: an offset carried in an opaque token.
type Page struct {
	Offset int `json:"offset"`
}

// ParsePageToken decodes a page token ("" = the first page).
func ParsePageToken(tok string) (int, error) {
	if tok == "" {
		return 0, nil
	}
	raw, err := base64.StdEncoding.DecodeString(tok)
	var p Page
	if err != nil || json.Unmarshal(raw, &p) != nil || p.Offset < 0 {
		return 0, apierr.MLflowInvalidParameter("Invalid page token, could not base64-decode")
	}
	return p.Offset, nil
}

// PageToken encodes the position after offset.
func PageToken(offset int) string {
	b, _ := json.Marshal(Page{Offset: offset})
	return base64.StdEncoding.EncodeToString(b)
}

// ExperimentSearch is a search-experiments request.
type ExperimentSearch struct {
	Company    string
	Filter     string
	OrderBy    []string
	MaxResults int
	PageToken  string
	ViewType   int
}

// SearchExperiments lists experiments and the next page's token.
func SearchExperiments(ctx context.Context, env *domain.Env, s ExperimentSearch) ([]*Experiment, string, error) {
	if s.MaxResults <= 0 {
		s.MaxResults = 1000
	}
	if s.MaxResults > MaxExpResults {
		return nil, "", apierr.MLflowInvalidParameter("Invalid value %d for parameter 'max_results' supplied. It must be at most %d", s.MaxResults, MaxExpResults)
	}
	offset, err := ParsePageToken(s.PageToken)
	if err != nil {
		return nil, "", err
	}
	// The Default experiment always exists, as in MLflow.
	if _, err := env.DB.ProjectByName(ctx, env.DB.Read(), DefaultName, s.Company); errors.Is(err, store.ErrNotFound) {
		err = env.DB.Tx(ctx, func(q store.Querier) error {
			p, err := projects.EnsureByName(ctx, env, q, s.Company, "", DefaultName)
			if err != nil {
				return err
			}
			p.MLflow = &store.MLflowExperiment{Name: DefaultName}
			return env.DB.Projects().Update(ctx, q, p)
		})
		if err != nil {
			return nil, "", err
		}
	} else if err != nil {
		return nil, "", err
	}
	plan := query.NewPlan(env.DB.D, projects.Schema, s.MaxResults+1, offset)
	conds := []query.Cond{{Column: "company", Op: query.OpEq, Values: []any{s.Company}},
		{Column: "system_tags", Op: query.OpHasNot, Values: []any{tagHidden}}}
	switch s.ViewType {
	case ViewActive:
		conds = append(conds, query.Cond{Column: "system_tags", Op: query.OpHasNot, Values: []any{tagArchived}})
	case ViewDeleted:
		conds = append(conds, query.Cond{Column: "system_tags", Op: query.OpHas, Values: []any{tagArchived}})
	}
	clauses, err := ParseExperimentFilter(s.Filter)
	if err != nil {
		return nil, "", err
	}
	for _, c := range clauses {
		qc, err := experimentCond(c)
		if err != nil {
			return nil, "", err
		}
		conds = append(conds, qc...)
	}
	for _, c := range conds {
		if err := plan.WhereCond(c); err != nil {
			return nil, "", err
		}
	}
	// the folder holding experiments whose names make no project name is
	// not an experiment itself
	err = plan.WhereAny([]query.Cond{{Column: "name", Op: query.OpNe, Values: []any{holderFolder}},
		{Path: []string{"mlflow", "name"}, Op: query.OpExists}})
	if err != nil {
		return nil, "", err
	}
	keys, err := experimentOrder(s.OrderBy)
	if err != nil {
		return nil, "", err
	}
	if err := plan.OrderBy(keys); err != nil {
		return nil, "", err
	}
	var out []*Experiment
	err = plan.Docs(ctx, env.DB, "projects", func(doc []byte) error {
		var p store.Project
		if err := json.Unmarshal(doc, &p); err != nil {
			return err
		}
		out = append(out, ExperimentOf(&p))
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	next := ""
	if len(out) > s.MaxResults {
		out = out[:s.MaxResults]
		next = PageToken(offset + s.MaxResults)
	}
	return out, next, nil
}

// ParseExperimentFilter parses an experiment filter: name, creation_time,
// last_update_time and tags.
func ParseExperimentFilter(s string) ([]Clause, error) {
	return clauses(s, func(toks []token) (Clause, int, error) {
		kind, key, n, err := identifier(s, toks)
		if err != nil {
			return Clause{}, 0, err
		}
		c := Clause{Kind: kind, Key: key}
		numeric := false
		switch {
		case kind == KindTag:
		case kind == KindAttribute && key == "name":
		case kind == KindAttribute && (key == "creation_time" || key == "last_update_time"):
			numeric = true
		default:
			return Clause{}, 0, filterErr("Invalid attribute key '%s' specified. Valid keys are '['name', 'creation_time', 'last_update_time']'", key)
		}
		if n >= len(toks) {
			return Clause{}, 0, filterErr("Invalid filter '%s': '%s' has no comparison", s, key)
		}
		op, m, err := operator(s, toks[n:])
		if err != nil {
			return Clause{}, 0, err
		}
		c.Op = op
		j := n + m
		if nullOp(op) {
			if kind != KindTag {
				return Clause{}, 0, filterErr("Invalid filter '%s': '%s' applies to tags only", s, op)
			}
			return c, j, nil
		}
		if j >= len(toks) {
			return Clause{}, 0, filterErr("Invalid filter '%s': '%s %s' has no value", s, key, op)
		}
		v := toks[j]
		if numeric {
			c.Numeric = true
			if v.kind != "num" || op == "LIKE" || op == "ILIKE" || op == "IN" || op == "NOT IN" {
				return Clause{}, 0, filterErr("Invalid filter '%s': '%s' compares with numbers", s, key)
			}
			f, perr := parseFloat(v.text)
			if perr != nil {
				return Clause{}, 0, perr
			}
			c.Num = f
		} else {
			if v.kind != "str" && v.kind != "dquoted" || op == "IN" || op == "NOT IN" {
				return Clause{}, 0, filterErr("Invalid filter '%s': '%s' compares with a quoted string", s, key)
			}
			switch op {
			case "<", ">", "<=", ">=":
				return Clause{}, 0, filterErr("Invalid comparator '%s' not one of '['=', '!=', 'LIKE', 'ILIKE']'", op)
			}
			c.Str = []string{v.text}
		}
		return c, j + 1, nil
	})
}

func experimentCond(c Clause) ([]query.Cond, error) {
	switch {
	case c.Kind == KindTag && c.Op == OpIsNull:
		return []query.Cond{{Path: []string{"mlflow", "tags", c.Key}, Op: query.OpMissing}}, nil
	case c.Kind == KindTag && c.Op == OpIsNotNull:
		return []query.Cond{{Path: []string{"mlflow", "tags", c.Key}, Op: query.OpExists}}, nil
	case c.Kind == KindTag:
		return []query.Cond{strCond(nil, []string{"mlflow", "tags", c.Key}, c)}, nil
	case c.Key == "name":
		// The MLflow name when kept, else the project name.
		return []query.Cond{strCond(nil, []string{"mlflow", "name"}, c)}, nil
	case c.Key == "creation_time":
		return []query.Cond{{Column: "created", Op: c.Op, Values: []any{int64(c.Num)}}}, nil
	default:
		return []query.Cond{{Column: "last_update", Op: c.Op, Values: []any{int64(c.Num)}}}, nil
	}
}

func experimentOrder(terms []string) ([]query.OrderKey, error) {
	var out []query.OrderKey
	for _, t := range terms {
		f := strings.Fields(t)
		if len(f) == 0 || len(f) > 2 {
			return nil, filterErr("Invalid order_by clause '%s'", t)
		}
		desc := false
		if len(f) == 2 {
			switch strings.ToUpper(f[1]) {
			case "ASC":
			case "DESC":
				desc = true
			default:
				return nil, filterErr("Invalid order_by clause '%s'", t)
			}
		}
		key := strings.TrimPrefix(strings.TrimPrefix(f[0], "attributes."), "attribute.")
		switch key {
		case "name":
			out = append(out, query.OrderKey{Path: []string{"mlflow", "name"}, Desc: desc})
		case "creation_time":
			out = append(out, query.OrderKey{Column: "created", Desc: desc})
		case "last_update_time":
			out = append(out, query.OrderKey{Column: "last_update", Desc: desc})
		case "experiment_id":
			out = append(out, query.OrderKey{Column: "id", Desc: desc})
		default:
			return nil, filterErr("Invalid attribute key '%s' specified. Valid keys are '['name', 'experiment_id', 'creation_time', 'last_update_time']'", key)
		}
	}
	if len(out) == 0 {
		out = []query.OrderKey{{Column: "created", Desc: true}}
	}
	return out, nil
}
