package projects

import (
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"

	projectdom "github.com/trove-ml/trove/internal/projects"
)

type getByIDRequest struct {
	Project string `json:"project" required:"true"`
}

type getByIDResponse struct {
	Project *store.Project `json:"project"`
}

func (s *service) getByID(ctx context.Context, c *rpc.Call, req *getByIDRequest) (*getByIDResponse, error) {
	p, err := projectdom.Get(ctx, &s.d.Env, c.Company(), req.Project)
	if err != nil {
		return nil, err
	}
	return &getByIDResponse{Project: p}, nil
}

// storedItems makes the items of project lists: a project answers its
// stored row.
var storedItems = api.StoredItems[store.Project]()

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
	res, err := projectdom.List(ctx, &s.d.Env, projectdom.ListInput{Company: c.Company(), Request: &req.Request,
		Body: c.Body, Convert: storedItems, AllowPublic: true, Parent: req.Parent, ShallowSearch: req.ShallowSearch})
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
	// ChildrenType (dataset, pipeline, report) keeps the projects holding
	// such children; ChildrenTags and ChildrenTagsFilter filter those
	// children by their tags.
	ChildrenType        string          `json:"children_type"`
	ChildrenTags        json.RawMessage `json:"children_tags"`
	ChildrenTagsFilter  json.RawMessage `json:"children_tags_filter"`
	IncludeDatasetStats bool            `json:"include_dataset_stats"`
	// IncludeStatsFilter selects the tasks the statistics count.
	IncludeStatsFilter map[string]json.RawMessage `json:"include_stats_filter"`
}

func (r *getAllExRequest) Validate() error {
	if _, err := projectdom.StatsStates("stats_for_state", r.StatsForState); err != nil {
		return err
	}
	return projectdom.ValidChildrenType(r.ChildrenType)
}

func (s *service) getAllEx(ctx context.Context, c *rpc.Call, req *getAllExRequest) (*getAllResponse, error) {
	states, _ := projectdom.StatsStates("stats_for_state", req.StatsForState)
	res, err := projectdom.List(ctx, &s.d.Env, projectdom.ListInput{Company: c.Company(), Request: &req.Request,
		Body: c.Body, Convert: storedItems, Ex: true, AllowPublic: !req.NonPublic && (req.AllowPublic == nil || *req.AllowPublic),
		Parent: req.Parent, ShallowSearch: req.ShallowSearch, ActiveUsers: req.ActiveUsers,
		Stats: projectdom.StatsOptions{Stats: req.IncludeStats, Own: req.CheckOwnContents, States: states,
			WithChildren: req.StatsWithChildren == nil || *req.StatsWithChildren, TaskFilter: req.IncludeStatsFilter},
		Children:     projectdom.ChildrenFilter{Type: req.ChildrenType, Tags: req.ChildrenTags, TagsFilter: req.ChildrenTagsFilter},
		DatasetStats: req.IncludeDatasetStats})
	if err != nil {
		return nil, err
	}
	return &getAllResponse{Projects: res.Items, ScrollID: res.ScrollID}, nil
}
