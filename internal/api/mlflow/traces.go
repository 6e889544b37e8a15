package mlflow

import (
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/mlflow"
	"github.com/trove-ml/trove/internal/rpc"
)

// MLflow 3's traces (issue 38): v3's rows under "3.0/", and the v2 rows
// the client still calls (start and end of a v2 trace, tags, delete,
// link to a run). Searches sent by POST and the correlation change
// nothing: rpc.Read.

func (s *Server) traceTable() []endpoint {
	return []endpoint{
		{"traces", post, rpc.Write, s.startTraceV2},
		{"traces", get, rpc.Read, s.searchTracesV2},
		{"traces/{request_id}", patch, rpc.Write, s.endTraceV2},
		{"traces/{request_id}/info", get, rpc.Read, s.getTraceInfoV2},
		{"traces/{request_id}/tags", patch, rpc.Write, s.setTraceTag},
		{"traces/{request_id}/tags", del, rpc.Write, s.deleteTraceTag},
		{"traces/delete-traces", post, rpc.Write, s.deleteTraces},
		{"traces/link-to-run", post, rpc.Write, s.linkTracesToRun},
		{v3 + "traces", post, rpc.Write, s.startTraceV3},
		{v3 + "traces/search", post, rpc.Read, s.searchTracesV3},
		{v3 + "traces/{trace_id}", get, rpc.Read, s.getTraceInfoV3},
		{v3 + "traces/{trace_id}/tags", patch, rpc.Write, s.setTraceTag},
		{v3 + "traces/{trace_id}/tags", del, rpc.Write, s.deleteTraceTag},
		{v3 + "traces/delete-traces", post, rpc.Write, s.deleteTraces},
		{v3 + "traces/calculate-filter-correlation", post, rpc.Read, s.correlateTraces},
		{v3 + "traces/metrics", post, rpc.Read, s.queryTraceMetrics},
		{v3 + "traces/{trace_id}/assessments", post, rpc.Write, s.createAssessment},
		{v3 + "traces/{trace_id}/assessments/{assessment_id}", get, rpc.Read, s.getAssessment},
		{v3 + "traces/{trace_id}/assessments/{assessment_id}", patch, rpc.Write, s.updateAssessment},
		{v3 + "traces/{trace_id}/assessments/{assessment_id}", del, rpc.Write, s.deleteAssessment},
	}
}

// traceID reads the trace's id: the path's, or a member of either name.
func traceID(c *call) (string, error) {
	for _, n := range []string{"trace_id", "request_id"} {
		if v, err := c.str(n); err != nil || v != "" {
			return v, err
		}
	}
	return "", missing("trace_id")
}

// kvMap reads a list of {key, value} (v2's metadata and tags).
func kvMap(c *call, name string) (map[string]string, error) {
	var kvs []kvJSON
	if err := c.list(name, &kvs); err != nil {
		return nil, err
	}
	return tagMap(kvs), nil
}

func (s *Server) startTraceV2(ctx context.Context, c *call) (any, error) {
	in := mlflow.TraceStart{Company: c.id.CompanyID, User: c.id.UserID}
	var err error
	if in.ExperimentID, err = c.required("experiment_id"); err != nil {
		return nil, err
	}
	ts, err := c.int64p("timestamp_ms")
	if err != nil {
		return nil, err
	}
	if ts != nil {
		in.RequestTime = *ts
	} else {
		in.RequestTime = s.env.Time().Millis()
	}
	if in.Metadata, err = kvMap(c, "request_metadata"); err != nil {
		return nil, err
	}
	if in.Tags, err = kvMap(c, "tags"); err != nil {
		return nil, err
	}
	t, err := mlflow.StartTrace(ctx, s.env, in)
	if err != nil {
		return nil, err
	}
	return map[string]any{"trace_info": traceV2Wire(t)}, nil
}

func (s *Server) endTraceV2(ctx context.Context, c *call) (any, error) {
	id, err := traceID(c)
	if err != nil {
		return nil, err
	}
	ts, err := c.int64p("timestamp_ms")
	if err != nil {
		return nil, err
	}
	end := s.env.Time().Millis()
	if ts != nil {
		end = *ts
	}
	status, err := c.str("status")
	if err != nil {
		return nil, err
	}
	state, err := mlflow.ParseTraceState(status)
	if err != nil {
		return nil, err
	}
	meta, err := kvMap(c, "request_metadata")
	if err != nil {
		return nil, err
	}
	tags, err := kvMap(c, "tags")
	if err != nil {
		return nil, err
	}
	t, err := mlflow.EndTrace(ctx, s.env, c.id.CompanyID, id, end, state, meta, tags)
	if err != nil {
		return nil, err
	}
	return map[string]any{"trace_info": traceV2Wire(t)}, nil
}

func (s *Server) getTraceInfoV2(ctx context.Context, c *call) (any, error) {
	id, err := traceID(c)
	if err != nil {
		return nil, err
	}
	t, err := mlflow.GetTrace(ctx, s.env, c.id.CompanyID, id)
	if err != nil {
		return nil, err
	}
	return map[string]any{"trace_info": traceV2Wire(t)}, nil
}

func (s *Server) startTraceV3(ctx context.Context, c *call) (any, error) {
	raw, ok := c.params["trace"]
	if !ok || string(raw) == "null" {
		return nil, missing("trace")
	}
	var tr struct {
		TraceInfo *traceInfoV3In `json:"trace_info"`
	}
	if err := json.Unmarshal(raw, &tr); err != nil || tr.TraceInfo == nil {
		return nil, badType("trace", "a Trace object with its trace_info", raw)
	}
	ti := tr.TraceInfo
	in := mlflow.TraceStart{Company: c.id.CompanyID, User: c.id.UserID, ID: ti.TraceID, ClientRequestID: ti.ClientRequestID,
		RequestPreview: ti.RequestPreview, ResponsePreview: ti.ResponsePreview, Tags: ti.Tags, Metadata: ti.TraceMetadata}
	if in.ID == "" {
		return nil, missing("trace.trace_info.trace_id")
	}
	if ti.TraceLocation.MLflowExperiment == nil || ti.TraceLocation.MLflowExperiment.ExperimentID == "" {
		return nil, apierr.MLflowInvalidParameter("A trace's location must be an MLflow experiment (trace_location.mlflow_experiment.experiment_id)")
	}
	in.ExperimentID = ti.TraceLocation.MLflowExperiment.ExperimentID
	if in.RequestPreview == "" {
		in.RequestPreview = ti.Request
	}
	if in.ResponsePreview == "" {
		in.ResponsePreview = ti.Response
	}
	var err error
	if in.RequestTime, err = parsePBTime("trace.trace_info.request_time", ti.RequestTime); err != nil {
		return nil, err
	}
	if in.Duration, err = parsePBDuration("trace.trace_info.execution_duration", ti.ExecutionDuration); err != nil {
		return nil, err
	}
	if in.State, err = mlflow.ParseTraceState(ti.State); err != nil {
		return nil, err
	}
	t, err := mlflow.StartTrace(ctx, s.env, in)
	if err != nil {
		return nil, err
	}
	return map[string]any{"trace": map[string]any{"trace_info": traceV3Wire(t, nil)}}, nil
}

func (s *Server) getTraceInfoV3(ctx context.Context, c *call) (any, error) {
	id, err := traceID(c)
	if err != nil {
		return nil, err
	}
	t, err := mlflow.GetTrace(ctx, s.env, c.id.CompanyID, id)
	if err != nil {
		return nil, err
	}
	as, err := mlflow.TraceAssessments(ctx, s.env, c.id.CompanyID, id)
	if err != nil {
		return nil, err
	}
	return map[string]any{"trace": map[string]any{"trace_info": traceV3Wire(t, as)}}, nil
}

// traceSearchIn reads a search's parameters; v3 names experiments by
// locations, v2 by experiment_ids.
func traceSearchIn(c *call) (mlflow.TraceSearch, error) {
	in := mlflow.TraceSearch{Company: c.id.CompanyID}
	var err error
	if in.ExperimentIDs, err = c.strs("experiment_ids"); err != nil {
		return in, err
	}
	var locs []traceLocationJSON
	if err := c.list("locations", &locs); err != nil {
		return in, err
	}
	for _, l := range locs {
		if l.MLflowExperiment == nil {
			return in, apierr.MLflowInvalidParameter("Only MLflow experiment locations are searched (locations[].mlflow_experiment)")
		}
		in.ExperimentIDs = append(in.ExperimentIDs, l.MLflowExperiment.ExperimentID)
	}
	if in.Filter, err = c.str("filter"); err != nil {
		return in, err
	}
	if in.OrderBy, err = c.strs("order_by"); err != nil {
		return in, err
	}
	if in.PageToken, err = c.str("page_token"); err != nil {
		return in, err
	}
	n, err := c.int64p("max_results")
	if err != nil {
		return in, err
	}
	if n != nil {
		if *n < 1 || *n > mlflow.MaxTraceResults {
			return in, apierr.MLflowInvalidParameter("Invalid value %d for parameter 'max_results': 1 to %d", *n, mlflow.MaxTraceResults)
		}
		in.MaxResults = int(*n)
	}
	return in, nil
}

// tracePage is a trace search's answer in one API version's wire form.
type tracePage[W any] struct {
	Traces        []W    `json:"traces,omitempty"`
	NextPageToken string `json:"next_page_token,omitempty"`
}

// searchTraces answers a trace search (v2 and v3 differ in wire only).
func searchTraces[W any](ctx context.Context, s *Server, c *call, wire func(*mlflow.Trace) W) (any, error) {
	in, err := traceSearchIn(c)
	if err != nil {
		return nil, err
	}
	list, next, err := mlflow.SearchTraces(ctx, s.env, in)
	if err != nil {
		return nil, err
	}
	return tracePage[W]{wireAll(list, wire), next}, nil
}

func (s *Server) searchTracesV3(ctx context.Context, c *call) (any, error) {
	return searchTraces(ctx, s, c, func(t *mlflow.Trace) *traceInfoV3JSON { return traceV3Wire(t, nil) })
}

func (s *Server) searchTracesV2(ctx context.Context, c *call) (any, error) {
	return searchTraces(ctx, s, c, traceV2Wire)
}

func (s *Server) setTraceTag(ctx context.Context, c *call) (any, error) {
	return s.traceTag(ctx, c, false)
}

func (s *Server) deleteTraceTag(ctx context.Context, c *call) (any, error) {
	return s.traceTag(ctx, c, true)
}

func (s *Server) traceTag(ctx context.Context, c *call, del bool) (any, error) {
	id, err := traceID(c)
	if err != nil {
		return nil, err
	}
	key, err := c.required("key")
	if err != nil {
		return nil, err
	}
	value, err := c.str("value")
	if err != nil {
		return nil, err
	}
	return empty{}, mlflow.SetTraceTag(ctx, s.env, c.id.CompanyID, id, key, value, del)
}

func (s *Server) deleteTraces(ctx context.Context, c *call) (any, error) {
	in := mlflow.TraceDelete{Company: c.id.CompanyID}
	var err error
	if in.ExperimentID, err = c.required("experiment_id"); err != nil {
		return nil, err
	}
	if in.MaxTime, err = c.int64p("max_timestamp_millis"); err != nil {
		return nil, err
	}
	if in.MaxTraces, err = c.int64p("max_traces"); err != nil {
		return nil, err
	}
	if in.IDs, err = c.strs("request_ids"); err != nil {
		return nil, err
	}
	more, err := c.strs("trace_ids")
	if err != nil {
		return nil, err
	}
	in.IDs = append(in.IDs, more...)
	n, err := mlflow.DeleteTraces(ctx, s.env, in)
	if err != nil {
		return nil, err
	}
	return map[string]int{"traces_deleted": n}, nil
}

func (s *Server) linkTracesToRun(ctx context.Context, c *call) (any, error) {
	run, err := c.required("run_id")
	if err != nil {
		return nil, err
	}
	ids, err := c.strs("trace_ids")
	if err != nil {
		return nil, err
	}
	return empty{}, mlflow.LinkTracesToRun(ctx, s.env, c.id.CompanyID, run, ids)
}

func (s *Server) correlateTraces(ctx context.Context, c *call) (any, error) {
	exps, err := c.strs("experiment_ids")
	if err != nil {
		return nil, err
	}
	f1, err := c.required("filter_string1")
	if err != nil {
		return nil, err
	}
	f2, err := c.required("filter_string2")
	if err != nil {
		return nil, err
	}
	base, err := c.str("base_filter")
	if err != nil {
		return nil, err
	}
	r, err := mlflow.CorrelateTraceFilters(ctx, s.env, c.id.CompanyID, exps, f1, f2, base)
	if err != nil {
		return nil, err
	}
	return struct {
		NPMI         nanNumber `json:"npmi"`
		NPMISmoothed nanNumber `json:"npmi_smoothed"`
		Filter1Count int       `json:"filter1_count"`
		Filter2Count int       `json:"filter2_count"`
		JointCount   int       `json:"joint_count"`
		TotalCount   int       `json:"total_count"`
	}{nanNumber(r.NPMI), nanNumber(r.NPMISmoothed), r.Filter1Count, r.Filter2Count, r.JointCount, r.Total}, nil
}

func assessmentAnswer(a *mlflow.Assessment, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return map[string]any{"assessment": assessmentWire(a)}, nil
}

func (s *Server) createAssessment(ctx context.Context, c *call) (any, error) {
	a, err := assessmentIn(c)
	if err != nil {
		return nil, err
	}
	a.TraceID = c.path("trace_id")
	return assessmentAnswer(mlflow.CreateAssessment(ctx, s.env, c.id.CompanyID, a))
}

func (s *Server) getAssessment(ctx context.Context, c *call) (any, error) {
	return assessmentAnswer(mlflow.GetAssessment(ctx, s.env, c.id.CompanyID, c.path("trace_id"), c.path("assessment_id")))
}

func (s *Server) updateAssessment(ctx context.Context, c *call) (any, error) {
	a, err := assessmentIn(c)
	if err != nil {
		return nil, err
	}
	mask, err := c.str("update_mask")
	if err != nil {
		var m struct {
			Paths []string `json:"paths"`
		}
		if json.Unmarshal(c.params["update_mask"], &m) != nil {
			return nil, err
		}
		mask = joinMask(m.Paths)
	}
	return assessmentAnswer(mlflow.UpdateAssessment(ctx, s.env, c.id.CompanyID, c.path("trace_id"), c.path("assessment_id"), a, splitMask(mask)))
}

func (s *Server) deleteAssessment(ctx context.Context, c *call) (any, error) {
	return empty{}, mlflow.DeleteAssessment(ctx, s.env, c.id.CompanyID, c.path("trace_id"), c.path("assessment_id"))
}
