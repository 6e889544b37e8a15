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
	Projects  json.RawMessage `json:"projects"`
	Tasks     json.RawMessage `json:"tasks"`
	Models    json.RawMessage `json:"models"`
	Pipelines json.RawMessage `json:"pipelines"`
	Datasets  json.RawMessage `json:"datasets"`
	Reports   json.RawMessage `json:"reports"`
	// PipelineRuns and DatasetVersions are 2.34's.
	PipelineRuns    json.RawMessage `json:"pipeline_runs"`
	DatasetVersions json.RawMessage `json:"dataset_versions"`
	ActiveUsers     []string        `json:"active_users"`
	SearchHidden    bool            `json:"search_hidden"`
	AllowPublic     *bool           `json:"allow_public"`
	// Limit (2.33) caps each count; 0 or absent counts all.
	Limit *int `json:"limit"`
}

func (r *entitiesCountRequest) queries() map[string]json.RawMessage {
	return map[string]json.RawMessage{"projects": r.Projects, "tasks": r.Tasks, "models": r.Models,
		"pipelines": r.Pipelines, "datasets": r.Datasets, "reports": r.Reports,
		"pipeline_runs": r.PipelineRuns, "dataset_versions": r.DatasetVersions}
}

// Validate refuses a kind's query that is not an object (null = not asked)
// and a negative limit.
func (r *entitiesCountRequest) Validate() error {
	if r.Limit != nil && *r.Limit < 0 {
		return apierr.Validation("limit", "must be 0 or more, got %d", *r.Limit)
	}
	for name, raw := range r.queries() {
		raw = bytes.TrimSpace(raw)
		if len(raw) > 0 && raw[0] != '{' && !bytes.Equal(raw, []byte("null")) {
			return apierr.Validation(name, "expected an object")
		}
	}
	return nil
}

// Versions of get_entities_count's additions.
var (
	countLimitVersion  = rpc.Version{Major: 2, Minor: 33}
	countErrorsVersion = rpc.Version{Major: 2, Minor: 34}
)

// getEntitiesCount counts, per entity kind asked, the records its query
// matches (the dashboard search tabs). From 2.34 a kind whose query is
// refused is named in "errors" and the others are still counted; before,
// the read fails. limit (2.33) caps each count, and pipeline_runs and
// dataset_versions (2.34) are counted; older clients' extra fields are
// ignored.
func (s *service) getEntitiesCount(ctx context.Context, c *rpc.Call, req *entitiesCountRequest) (*map[string]any, error) {
	queries := req.queries()
	in := orgdom.CountInput{Company: c.Company(), Queries: queries, ActiveUsers: req.ActiveUsers, SearchHidden: req.SearchHidden,
		AllowPublic: req.AllowPublic == nil || *req.AllowPublic, KeepErrors: c.Version.AtLeast(countErrorsVersion)}
	if req.Limit != nil && c.Version.AtLeast(countLimitVersion) {
		in.Limit = *req.Limit
	}
	if !c.Version.AtLeast(countErrorsVersion) {
		delete(queries, "pipeline_runs")
		delete(queries, "dataset_versions")
	}
	counts, err := orgdom.CountEntities(ctx, &s.d.Env, in)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	for k, n := range counts.Counts {
		out[k] = n
	}
	if len(counts.Errors) > 0 {
		out["errors"] = counts.Errors
	}
	return &out, nil
}
