package organization

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/apierr"
	orgdom "github.com/trove-ml/trove/internal/organization"
	"github.com/trove-ml/trove/internal/rpc"
)

// entitiesCountRequest holds a list query (an object) per entity kind.
type entitiesCountRequest struct {
	Projects     json.RawMessage `json:"projects"`
	Tasks        json.RawMessage `json:"tasks"`
	Models       json.RawMessage `json:"models"`
	Pipelines    json.RawMessage `json:"pipelines"`
	Datasets     json.RawMessage `json:"datasets"`
	Reports      json.RawMessage `json:"reports"`
	ActiveUsers  []string        `json:"active_users"`
	SearchHidden bool            `json:"search_hidden"`
	AllowPublic  *bool           `json:"allow_public"`
}

func (r *entitiesCountRequest) queries() map[string]json.RawMessage {
	return map[string]json.RawMessage{"projects": r.Projects, "tasks": r.Tasks, "models": r.Models,
		"pipelines": r.Pipelines, "datasets": r.Datasets, "reports": r.Reports}
}

// Validate refuses a kind's query that is not an object (null = not asked).
func (r *entitiesCountRequest) Validate() error {
	for name, raw := range r.queries() {
		raw = bytes.TrimSpace(raw)
		if len(raw) > 0 && raw[0] != '{' && !bytes.Equal(raw, []byte("null")) {
			return apierr.Validation(name, "expected an object")
		}
	}
	return nil
}

// getEntitiesCount counts, per entity kind asked, the records its query
// matches (the dashboard search tabs).
func (s *service) getEntitiesCount(ctx context.Context, c *rpc.Call, req *entitiesCountRequest) (*map[string]int, error) {
	counts, err := orgdom.CountEntities(ctx, &s.d.Env, orgdom.CountInput{Company: c.Company(), Queries: req.queries(),
		ActiveUsers: req.ActiveUsers, SearchHidden: req.SearchHidden, AllowPublic: req.AllowPublic == nil || *req.AllowPublic})
	if err != nil {
		return nil, err
	}
	return &counts, nil
}
