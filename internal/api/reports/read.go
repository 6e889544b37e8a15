package reports

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/reports"
	"github.com/trove-ml/trove/internal/rpc"
)

type getAllExRequest struct {
	query.Request
	// Project is absent, an id, or a list of ids where null is the root.
	Project            json.RawMessage `json:"project"`
	IncludeSubprojects bool            `json:"include_subprojects"`
}

// projects reads the project filter; given is false when absent.
func (r *getAllExRequest) projects() (ids []string, given bool, err error) {
	raw := bytes.TrimSpace(r.Project)
	if len(raw) == 0 {
		return nil, false, nil
	}
	if bytes.Equal(raw, []byte("null")) {
		return []string{""}, true, nil
	}
	var list []*string
	if raw[0] == '[' {
		if json.Unmarshal(raw, &list) != nil {
			return nil, false, apierr.Validation("project", "expected a list of project ids")
		}
	} else {
		var id string
		if json.Unmarshal(raw, &id) != nil {
			return nil, false, apierr.Validation("project", "expected a project id or a list of them")
		}
		list = []*string{&id}
	}
	for _, p := range list {
		if p == nil {
			ids = append(ids, "")
		} else {
			ids = append(ids, *p)
		}
	}
	return ids, true, nil
}

func (r *getAllExRequest) Validate() error {
	_, _, err := r.projects()
	return err
}

type getAllExResponse struct {
	Tasks    []map[string]any `json:"tasks"`
	ScrollID *string          `json:"scroll_id,omitempty"`
}

func (s *service) getAllEx(ctx context.Context, c *rpc.Call, req *getAllExRequest) (*getAllExResponse, error) {
	ids, given, _ := req.projects()
	res, err := reports.List(ctx, &s.d.Env, reports.ListInput{Company: c.Company(), Request: &req.Request, Body: c.Body,
		ProjectGiven: given, Projects: ids, IncludeSubprojects: req.IncludeSubprojects,
		AllowPublic: req.AllowPublic == nil || *req.AllowPublic})
	if err != nil {
		return nil, err
	}
	return &getAllExResponse{Tasks: res.Items, ScrollID: res.ScrollID}, nil
}

type tagsResponse struct {
	Tags []string `json:"tags"`
}

func (s *service) getTags(ctx context.Context, c *rpc.Call, _ *struct{}) (*tagsResponse, error) {
	tags, err := reports.Tags(ctx, &s.d.Env, c.Company())
	if err != nil {
		return nil, err
	}
	return &tagsResponse{Tags: tags}, nil
}
