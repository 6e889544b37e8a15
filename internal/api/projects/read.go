package projects

import (
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

type getByIDRequest struct {
	Project string `json:"project" required:"true"`
}

type getByIDResponse struct {
	// Project is the stored document, returned as stored.
	Project json.RawMessage `json:"project"`
}

func (s *service) getByID(ctx context.Context, c *rpc.Call, req *getByIDRequest) (*getByIDResponse, error) {
	p, err := s.d.DB.Projects().GetRaw(ctx, s.d.DB.Read(), req.Project, domain.Visible(c.Company())...)
	if err != nil {
		return nil, domain.NotFound(err, apierr.InvalidProjectID(req.Project))
	}
	return &getByIDResponse{Project: p}, nil
}

type getAllRequest struct {
	query.Request
	Parent        query.StringList `json:"parent"`
	ShallowSearch bool             `json:"shallow_search"`
}

type getAllResponse struct {
	Projects []map[string]any `json:"projects"`
	ScrollID *string          `json:"scroll_id,omitempty"`
}

func (s *service) getAll(ctx context.Context, c *rpc.Call, req *getAllRequest) (*getAllResponse, error) {
	plan, err := s.plan(ctx, c, req, true, false)
	if err != nil {
		return nil, err
	}
	res, err := plan.Run(ctx, s.d.DB, "projects", c.Company(), refTables)
	if err != nil {
		return nil, err
	}
	return &getAllResponse{Projects: res.Items, ScrollID: res.ScrollID}, nil
}

type getAllExRequest struct {
	getAllRequest
	IncludeStats      bool            `json:"include_stats"`
	StatsForState     json.RawMessage `json:"stats_for_state"`
	StatsWithChildren *bool           `json:"stats_with_children"`
	CheckOwnContents  bool            `json:"check_own_contents"`
	NonPublic         bool            `json:"non_public"`
	ActiveUsers       []string        `json:"active_users"`
}

func (r *getAllExRequest) Validate() error {
	_, err := statsStates(r.StatsForState)
	return err
}

func (s *service) getAllEx(ctx context.Context, c *rpc.Call, req *getAllExRequest) (*getAllResponse, error) {
	allowPublic := !req.NonPublic && (req.AllowPublic == nil || *req.AllowPublic)
	plan, err := s.plan(ctx, c, &req.getAllRequest, allowPublic, true)
	if err != nil {
		return nil, err
	}
	if len(req.ActiveUsers) > 0 {
		ids, err := s.activeUserProjects(ctx, c.Company(), req.ActiveUsers)
		if err != nil {
			return nil, err
		}
		if len(ids) == 0 {
			return &getAllResponse{Projects: []map[string]any{}}, nil
		}
		plan.WhereIn("id", ids)
	}
	res, err := plan.Run(ctx, s.d.DB, "projects", c.Company(), refTables)
	if err != nil {
		return nil, err
	}
	if req.IncludeStats || req.CheckOwnContents {
		states, _ := statsStates(req.StatsForState)
		withChildren := req.StatsWithChildren == nil || *req.StatsWithChildren
		if err := s.addStats(ctx, c, res.Items, states, req.IncludeStats, req.CheckOwnContents, withChildren, req.SearchHidden); err != nil {
			return nil, err
		}
	}
	if req.SearchHidden {
		for _, it := range res.Items {
			if hasTag(it["system_tags"], "hidden") {
				it["hidden"] = true
			}
		}
	}
	return &getAllResponse{Projects: res.Items, ScrollID: res.ScrollID}, nil
}

// plan compiles a projects list query with the hierarchy rules.
func (s *service) plan(ctx context.Context, c *rpc.Call, req *getAllRequest, allowPublic, ex bool) (*query.Plan, error) {
	plan, err := query.Build(s.d.DB.D, Schema, &req.Request, c.Body, query.Options{Ex: ex, Skip: []string{"parent", "shallow_search",
		"include_stats", "stats_for_state", "stats_with_children", "check_own_contents", "non_public", "active_users", "children_type",
		"children_tags", "include_stats_filter", "include_dataset_stats", "user", "company"}})
	if err != nil {
		return nil, err
	}
	companies := []string{c.Company()}
	if allowPublic {
		companies = domain.Visible(c.Company())
	}
	plan.WhereIn("company", companies)
	if !req.SearchHidden && len(req.ID) == 0 {
		plan.Where("NOT "+s.d.DB.D.ArrayHas("system_tags"), "hidden")
	}
	switch {
	case len(req.Parent) > 0 && req.ShallowSearch:
		plan.WhereIn("parent", req.Parent)
	case len(req.Parent) > 0:
		plan.WhereIn("path", req.Parent)
	case req.ShallowSearch:
		plan.Where("parent IS NULL")
	}
	return plan, nil
}

// activeUserProjects lists projects holding tasks or models of the users,
// plus their ancestors.
func (s *service) activeUserProjects(ctx context.Context, company string, users []string) ([]string, error) {
	ids := map[string]bool{}
	for _, table := range []string{"tasks", "models"} {
		rows, err := s.d.DB.Read().QueryContext(ctx, "SELECT DISTINCT project FROM "+table+" WHERE company = ? AND project IS NOT NULL AND user_id IN ("+
			store.Placeholders(len(users))+")", append([]any{company}, store.Args(users)...)...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, err
			}
			ids[id] = true
		}
		rows.Close()
	}
	tree, err := s.d.DB.LoadProjectTree(ctx, s.d.DB.Read(), company)
	if err != nil {
		return nil, err
	}
	out := []string{}
	seen := map[string]bool{}
	for id := range ids {
		for x := id; x != "" && !seen[x]; x = tree.Parent[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out, nil
}

// loadWritable loads a project of the caller's company for writing.
func (s *service) loadWritable(ctx context.Context, q store.Querier, c *rpc.Call, id string) (*store.Project, error) {
	p, err := s.d.DB.Projects().GetForUpdate(ctx, q, id, domain.Visible(c.Company())...)
	if err != nil {
		return nil, domain.NotFound(err, apierr.InvalidProjectID(id))
	}
	if p.Company == "" {
		return nil, apierr.NoWritePermission("public project: id=%s", id)
	}
	return p, nil
}

func hasTag(v any, tag string) bool {
	list, _ := v.([]any)
	for _, t := range list {
		if t == tag {
			return true
		}
	}
	return false
}
