package mlflow

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/projects"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/store"
)

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

// viewConds keeps the projects or tasks a view type shows: active ones
// are not archived, deleted ones are.
func viewConds(view int) []query.Cond {
	switch view {
	case ViewActive:
		return []query.Cond{{Column: "system_tags", Op: query.OpHasNot, Values: []any{tagArchived}}}
	case ViewDeleted:
		return []query.Cond{{Column: "system_tags", Op: query.OpHas, Values: []any{tagArchived}}}
	}
	return nil
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
	size, err := pageSize(s.MaxResults, DefExpResults, MaxExpResults, trackingWording)
	if err != nil {
		return nil, "", err
	}
	offset, err := ParsePageToken(s.PageToken)
	if err != nil {
		return nil, "", err
	}
	if err := ensureDefaultExperiment(ctx, env, s.Company); err != nil {
		return nil, "", err
	}
	plan := query.NewPlan(env.DB.D, projects.Schema, size+1, offset)
	conds := []query.Cond{{Column: "company", Op: query.OpEq, Values: []any{s.Company}},
		{Column: "system_tags", Op: query.OpHasNot, Values: []any{tagHidden}}}
	conds = append(conds, viewConds(s.ViewType)...)
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
	out, next := cutPage(out, offset, size)
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
		op, j, err := comparison(s, toks, n, key)
		if err != nil {
			return Clause{}, 0, err
		}
		c.Op = op
		if done, err := tagNullTest(s, kind, op); err != nil || done {
			return c, j, err
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
