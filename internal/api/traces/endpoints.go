// Package traces serves the traces.* operations of Trove's own API: the
// MLflow 3 traces of a project (internal/mlflow) as Trove's web UI reads
// them. Reads only; traces are written through MLflow's API.
package traces

import (
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/api"
	mlflowapi "github.com/trove-ml/trove/internal/api/mlflow"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/mlflow"
	"github.com/trove-ml/trove/internal/rpc"
)

// Register adds the traces operations (Trove's own: no minimum version).
func Register(r *rpc.Registry, d *api.Deps) {
	s := &service{d: d}
	r.Add(
		rpc.Endpoint{Name: "traces.get_all", Access: rpc.Read, Handler: rpc.Typed(s.getAll)},
		rpc.Endpoint{Name: "traces.get_by_id", Access: rpc.Read, Handler: rpc.Typed(s.getByID)},
	)
}

type service struct{ d *api.Deps }

// traceWire is a trace as the UI shows it (times in epoch ms).
type traceWire struct {
	ID              string            `json:"id"`
	Project         string            `json:"project"`
	Name            string            `json:"name"`
	State           string            `json:"state"`
	RequestTime     int64             `json:"request_time"`
	DurationMs      int64             `json:"duration_ms"`
	RequestPreview  string            `json:"request_preview,omitempty"`
	ResponsePreview string            `json:"response_preview,omitempty"`
	Tags            map[string]string `json:"tags"`
	Metadata        map[string]string `json:"metadata,omitempty"`
	Runs            []string          `json:"runs,omitempty"`
}

func wire(t *mlflow.Trace, project string, full bool) traceWire {
	w := traceWire{ID: t.ID, Project: project, Name: t.Doc.Tags[mlflow.TraceTagName], State: t.State, RequestTime: t.RequestTime,
		DurationMs: t.Duration, RequestPreview: t.Doc.RequestPreview, ResponsePreview: t.Doc.ResponsePreview,
		Tags: map[string]string{}, Runs: mlflow.TraceRuns(t)}
	for k, v := range t.Doc.Tags {
		w.Tags[k] = v
	}
	if full {
		w.Metadata = t.Doc.Metadata
	}
	return w
}

type getAllRequest struct {
	Project  string `json:"project"`
	Page     int    `json:"page"`
	PageSize int    `json:"page_size"`
}

type getAllResponse struct {
	Traces []traceWire `json:"traces"`
}

func (s *service) getAll(ctx context.Context, c *rpc.Call, req *getAllRequest) (*getAllResponse, error) {
	if req.Project == "" {
		return nil, apierr.MissingField("project")
	}
	size := req.PageSize
	if size == 0 {
		size = 50
	}
	if req.Page < 0 || size < 1 || size > mlflow.MaxTraceResults {
		return nil, apierr.BadRequest("page must be 0 or more and page_size 1 to 1000")
	}
	list, err := mlflow.ProjectTraces(ctx, &s.d.Env, c.Company(), req.Project, req.Page*size, size)
	if err != nil {
		return nil, err
	}
	out := &getAllResponse{Traces: []traceWire{}}
	for _, t := range list {
		out.Traces = append(out.Traces, wire(t, req.Project, false))
	}
	return out, nil
}

type getByIDRequest struct {
	Trace string `json:"trace"`
}

type getByIDResponse struct {
	Trace traceWire `json:"trace"`
	// Spans are MLflow's span dictionaries as stored: data to show as
	// text, never to run.
	Spans []json.RawMessage `json:"spans"`
}

func (s *service) getByID(ctx context.Context, c *rpc.Call, req *getByIDRequest) (*getByIDResponse, error) {
	if req.Trace == "" {
		return nil, apierr.MissingField("trace")
	}
	t, err := mlflow.GetTrace(ctx, &s.d.Env, c.Company(), req.Trace)
	if err != nil {
		return nil, err
	}
	spans, err := mlflowapi.TraceSpans(ctx, s.d.DB, s.d.FileServer, c.Company(), t)
	if err != nil {
		return nil, err
	}
	return &getByIDResponse{Trace: wire(t, "", true), Spans: spans}, nil
}
