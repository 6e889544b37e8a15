package models

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"
	"strings"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

// listRequest is ModelsQuery plus the get_all extras.
type listRequest struct {
	query.Request
	IncludeSubprojects bool `json:"include_subprojects"`
	// Ready is read by the query from the body; declared here so that a
	// value that is not a boolean is refused while decoding.
	Ready *bool `json:"ready"`
}

type listResponse struct {
	Models   []map[string]any `json:"models"`
	ScrollID *string          `json:"scroll_id,omitempty"`
}

// listOptions say how one read operation runs a ModelsQuery.
type listOptions struct {
	ex          bool
	allowPublic bool
	stats       bool
}

// list runs a ModelsQuery for the caller. Own and (when allowed) public
// models are visible.
func (s *service) list(ctx context.Context, c *rpc.Call, req *listRequest, o listOptions) (*listResponse, error) {
	if err := api.ScrollAlways(&req.Request); err != nil {
		return nil, err
	}
	body := c.Body
	if req.IncludeSubprojects {
		var err error
		if body, err = s.withSubprojects(ctx, c, body); err != nil {
			return nil, err
		}
	}
	plan, err := query.Build(s.d.DB.D, Schema, &req.Request, body, query.Options{Ex: o.ex, Skip: []string{"include_stats"}})
	if err != nil {
		return nil, err
	}
	companies := []string{c.Company()}
	if o.allowPublic {
		companies = domain.Visible(c.Company())
	}
	plan.WhereIn("company", companies)
	res, err := plan.Run(ctx, s.d.DB, "models", c.Company(), refTables)
	if err != nil {
		return nil, err
	}
	if o.stats {
		if err := s.addStats(ctx, res.Items); err != nil {
			return nil, err
		}
	}
	api.ShapeMetadata(c, res.Items)
	return &listResponse{Models: res.Items, ScrollID: res.ScrollID}, nil
}

// withSubprojects rewrites the body's project filter to include every
// descendant of the projects named (include_subprojects).
func (s *service) withSubprojects(ctx context.Context, c *rpc.Call, body []byte) ([]byte, error) {
	raw := map[string]json.RawMessage{}
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, apierr.ValidationMsg("request body: %s", err.Error())
	}
	pv, ok := raw["project"]
	if !ok || bytes.Equal(bytes.TrimSpace(pv), []byte("null")) {
		return body, nil
	}
	var items []*string
	if err := json.Unmarshal(pv, &items); err != nil {
		var one string
		if json.Unmarshal(pv, &one) != nil {
			return body, nil // not a list of ids: the query reports it
		}
		items = []*string{&one}
	}
	tree, err := s.d.DB.LoadProjectTree(ctx, s.d.DB.Read(), domain.Visible(c.Company())...)
	if err != nil {
		return nil, err
	}
	// Ids gain their descendants; null ("no project") and list operators stay.
	var out []any
	for _, it := range items {
		if it == nil {
			out = append(out, nil)
			continue
		}
		if strings.HasPrefix(*it, "__$") || strings.HasPrefix(*it, "-") || *it == "" {
			out = append(out, *it)
			continue
		}
		for _, id := range tree.WithDescendants([]string{*it}) {
			out = append(out, id)
		}
	}
	expanded, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	raw["project"] = expanded
	return json.Marshal(raw)
}

// addStats adds stats.labels_count to each item (get_all_ex include_stats).
func (s *service) addStats(ctx context.Context, items []map[string]any) error {
	if len(items) == 0 {
		return nil
	}
	ids := make([]string, 0, len(items))
	for _, it := range items {
		if id, ok := it["id"].(string); ok {
			ids = append(ids, id)
		}
	}
	recs, err := s.d.DB.Models().Select(ctx, s.d.DB.Read(), "id IN ("+store.Placeholders(len(ids))+")", store.Args(ids)...)
	if err != nil {
		return err
	}
	counts := map[string]int{}
	for _, m := range recs {
		counts[m.ID] = len(m.Labels)
	}
	for _, it := range items {
		id, _ := it["id"].(string)
		it["stats"] = map[string]any{"labels_count": counts[id]}
	}
	return nil
}

func (s *service) getAll(ctx context.Context, c *rpc.Call, req *listRequest) (*listResponse, error) {
	return s.list(ctx, c, req, listOptions{allowPublic: true})
}

type getAllExRequest struct {
	listRequest
	IncludeStats bool `json:"include_stats"`
}

func (s *service) getAllEx(ctx context.Context, c *rpc.Call, req *getAllExRequest) (*listResponse, error) {
	allowPublic := req.AllowPublic == nil || *req.AllowPublic
	return s.list(ctx, c, &req.listRequest, listOptions{ex: true, allowPublic: allowPublic, stats: req.IncludeStats})
}

type getByIDExRequest struct {
	listRequest
}

func (r *getByIDExRequest) Validate() error {
	if len(r.ID) == 0 {
		return apierr.MissingField("id")
	}
	return nil
}

func (s *service) getByIDEx(ctx context.Context, c *rpc.Call, req *getByIDExRequest) (*listResponse, error) {
	res, err := s.list(ctx, c, &req.listRequest, listOptions{ex: true, allowPublic: true})
	if err != nil {
		return nil, err
	}
	res.ScrollID = nil
	return res, nil
}

type getByIDRequest struct {
	Model      string   `json:"model" required:"true"`
	OnlyFields []string `json:"only_fields"`
}

type getByIDResponse struct {
	Model map[string]any `json:"model"`
}

func (s *service) getByID(ctx context.Context, c *rpc.Call, req *getByIDRequest) (*getByIDResponse, error) {
	return s.readOne(ctx, c, req.Model, req.OnlyFields)
}

// readOne reads one own or public model through the list machinery, so
// that projection and hidden fields behave as in get_all.
func (s *service) readOne(ctx context.Context, c *rpc.Call, id string, onlyFields []string) (*getByIDResponse, error) {
	lr := &listRequest{Request: query.Request{ID: query.StringList{id}, OnlyFields: onlyFields}}
	plan, err := query.Build(s.d.DB.D, Schema, &lr.Request, nil, query.Options{})
	if err != nil {
		return nil, err
	}
	plan.WhereIn("company", domain.Visible(c.Company()))
	res, err := plan.Run(ctx, s.d.DB, "models", c.Company(), nil)
	if err != nil {
		return nil, err
	}
	if len(res.Items) == 0 {
		return nil, apierr.InvalidModelID(id)
	}
	api.ShapeMetadata(c, res.Items)
	return &getByIDResponse{Model: res.Items[0]}, nil
}

type getByTaskIDRequest struct {
	Task       string   `json:"task" required:"true"`
	OnlyFields []string `json:"only_fields"`
}

// getByTaskID returns the task's last output model. The reference stopped
// serving it after 2.13; Trove serves it at every version (rulings).
func (s *service) getByTaskID(ctx context.Context, c *rpc.Call, req *getByTaskIDRequest) (*getByIDResponse, error) {
	t, err := s.d.DB.Tasks().Get(ctx, s.d.DB.Read(), req.Task, c.Company())
	if err != nil {
		return nil, domain.NotFound(err, apierr.InvalidTaskID(req.Task))
	}
	if len(t.Models.Output) == 0 || t.Models.Output[len(t.Models.Output)-1] == nil {
		return nil, apierr.New(400, 122, "Task is missing expected fields").With("field", "models.output")
	}
	return s.readOne(ctx, c, t.Models.Output[len(t.Models.Output)-1].Model, req.OnlyFields)
}

type frameworksRequest struct {
	Projects []string `json:"projects"`
}

type frameworksResponse struct {
	Frameworks []string `json:"frameworks"`
}

// getFrameworks lists the distinct frameworks of own and public models,
// optionally of some projects and their subprojects.
func (s *service) getFrameworks(ctx context.Context, c *rpc.Call, req *frameworksRequest) (*frameworksResponse, error) {
	q := s.d.DB.Read()
	where := "company IN (?, ?) AND framework IS NOT NULL AND framework <> ''"
	args := []any{c.Company(), ""}
	if len(req.Projects) > 0 {
		tree, err := s.d.DB.LoadProjectTree(ctx, q, domain.Visible(c.Company())...)
		if err != nil {
			return nil, err
		}
		ids := tree.WithDescendants(req.Projects)
		where += " AND project IN (" + store.Placeholders(len(ids)) + ")"
		args = append(args, store.Args(ids)...)
	}
	fws, err := store.IDs(ctx, q, "SELECT DISTINCT framework FROM models WHERE "+where, args...)
	if err != nil {
		return nil, err
	}
	sort.Strings(fws)
	if fws == nil {
		fws = []string{}
	}
	return &frameworksResponse{Frameworks: fws}, nil
}
