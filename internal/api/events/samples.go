package events

import (
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/rpc"
)

type imageSampleRequest struct {
	Task                  string `json:"task" required:"true"`
	Metric                string `json:"metric" required:"true"`
	Variant               string `json:"variant" required:"true"`
	Iteration             *int64 `json:"iteration"`
	Refresh               bool   `json:"refresh"`
	ScrollID              string `json:"scroll_id"`
	NavigateCurrentMetric *bool  `json:"navigate_current_metric"`
	ModelEvents           bool   `json:"model_events"`
}

type imageSampleResponse struct {
	ScrollID     *string         `json:"scroll_id"`
	Event        json.RawMessage `json:"event"`
	MinIteration *int64          `json:"min_iteration"`
	MaxIteration *int64          `json:"max_iteration"`
}

func imageAnswer(id string, smp *events.Sample) *imageSampleResponse {
	out := &imageSampleResponse{ScrollID: &id, Event: json.RawMessage("null"), MinIteration: smp.Min, MaxIteration: smp.Max}
	if len(smp.Events) > 0 {
		out.Event = smp.Events[0]
	}
	return out
}

// getDebugImageSample shows a variant's debug image at an iteration (the
// latest when absent).
func (s *service) getDebugImageSample(ctx context.Context, c *rpc.Call, req *imageSampleRequest) (*imageSampleResponse, error) {
	id, smp, err := events.DebugImageSample(ctx, &s.d.Env, s.scrolls, c.Company(), events.SampleRequest{Task: req.Task,
		Metric: req.Metric, Variant: req.Variant, Iteration: req.Iteration, Refresh: req.Refresh, ScrollID: req.ScrollID,
		CurrentMetric: req.NavigateCurrentMetric == nil || *req.NavigateCurrentMetric, Model: req.ModelEvents})
	if err != nil {
		return nil, err
	}
	return imageAnswer(id, smp), nil
}

type nextSampleRequest struct {
	Task            string `json:"task" required:"true"`
	ScrollID        string `json:"scroll_id" required:"true"`
	NavigateEarlier *bool  `json:"navigate_earlier"`
	NextIteration   bool   `json:"next_iteration"`
	ModelEvents     bool   `json:"model_events"`
}

func (r *nextSampleRequest) earlier() bool { return r.NavigateEarlier == nil || *r.NavigateEarlier }

func (r *nextSampleRequest) toDomain() events.NextSampleRequest {
	return events.NextSampleRequest{Task: r.Task, ScrollID: r.ScrollID, Earlier: r.earlier(), NextIteration: r.NextIteration, Model: r.ModelEvents}
}

// nextDebugImageSample steps from the current debug image.
func (s *service) nextDebugImageSample(ctx context.Context, c *rpc.Call, req *nextSampleRequest) (*imageSampleResponse, error) {
	smp, err := events.NextDebugImage(ctx, &s.d.Env, s.scrolls, c.Company(), req.toDomain())
	if err != nil {
		return nil, err
	}
	return imageAnswer(req.ScrollID, smp), nil
}

type plotSampleRequest struct {
	Task                  string `json:"task" required:"true"`
	Metric                string `json:"metric" required:"true"`
	Iteration             *int64 `json:"iteration"`
	Refresh               bool   `json:"refresh"`
	ScrollID              string `json:"scroll_id"`
	NavigateCurrentMetric *bool  `json:"navigate_current_metric"`
	ModelEvents           bool   `json:"model_events"`
}

type plotSampleResponse struct {
	ScrollID     *string           `json:"scroll_id"`
	Events       []json.RawMessage `json:"events"`
	MinIteration *int64            `json:"min_iteration"`
	MaxIteration *int64            `json:"max_iteration"`
}

func plotAnswer(id string, smp *events.Sample) *plotSampleResponse {
	out := &plotSampleResponse{ScrollID: &id, Events: make([]json.RawMessage, len(smp.Events)), MinIteration: smp.Min, MaxIteration: smp.Max}
	for i, e := range smp.Events {
		out.Events[i] = e
	}
	return out
}

// getPlotSample shows a metric's plots at an iteration (the latest when
// absent).
func (s *service) getPlotSample(ctx context.Context, c *rpc.Call, req *plotSampleRequest) (*plotSampleResponse, error) {
	id, smp, err := events.PlotSample(ctx, &s.d.Env, s.scrolls, c.Company(), events.SampleRequest{Task: req.Task,
		Metric: req.Metric, Iteration: req.Iteration, Refresh: req.Refresh, ScrollID: req.ScrollID,
		CurrentMetric: req.NavigateCurrentMetric == nil || *req.NavigateCurrentMetric, Model: req.ModelEvents})
	if err != nil {
		return nil, err
	}
	return plotAnswer(id, smp), nil
}

// nextPlotSample steps from the current plots.
func (s *service) nextPlotSample(ctx context.Context, c *rpc.Call, req *nextSampleRequest) (*plotSampleResponse, error) {
	smp, err := events.NextPlotSample(ctx, &s.d.Env, s.scrolls, c.Company(), req.toDomain())
	if err != nil {
		return nil, err
	}
	return plotAnswer(req.ScrollID, smp), nil
}
