package events

import (
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/rpc"
)

const (
	imageSampleKind = "image_sample"
	plotSampleKind  = "plot_sample"
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

func stateMismatch(id string) error {
	return apierr.ScrollStateMismatch(id)
}

// getDebugImageSample shows a variant's debug image at an iteration (the
// latest when absent).
func (s *service) getDebugImageSample(ctx context.Context, c *rpc.Call, req *imageSampleRequest) (*imageSampleResponse, error) {
	if _, err := events.Readable(ctx, &s.d.Env, c.Company(), req.Task, req.ModelEvents); err != nil {
		return nil, err
	}
	current := req.NavigateCurrentMetric == nil || *req.NavigateCurrentMetric
	smp := &events.Samples{DB: s.d.DB}
	var st events.ImageSampleState
	id := req.ScrollID
	refresh := req.Refresh
	if id != "" {
		if err := s.scrolls.LoadState(ctx, id, c.Company(), imageSampleKind, &st); err != nil {
			return nil, err
		}
		if st.Task != req.Task || st.NavigateCurrentMetric != current || (current && st.Metric != req.Metric) {
			return nil, stateMismatch(id)
		}
	} else {
		st, refresh = events.ImageSampleState{Task: req.Task, Metric: req.Metric, NavigateCurrentMetric: current}, true
	}
	if refresh {
		metric := ""
		if current {
			metric = req.Metric
		}
		vs, err := smp.ImageRanges(ctx, req.Task, metric)
		if err != nil {
			return nil, err
		}
		st.Variants = vs
	}
	res, err := smp.GetImage(ctx, &st, req.Metric, req.Variant, req.Iteration)
	if err != nil {
		return nil, err
	}
	if id, err = s.keepState(ctx, c, id, imageSampleKind, &st); err != nil {
		return nil, err
	}
	return imageAnswer(id, res), nil
}

// keepState stores a sample state under its id, or under a new id.
func (s *service) keepState(ctx context.Context, c *rpc.Call, id, kind string, st any) (string, error) {
	if id == "" {
		return s.scrolls.NewState(ctx, c.Company(), kind, st)
	}
	return id, s.scrolls.SaveState(ctx, id, c.Company(), kind, st)
}

type nextSampleRequest struct {
	Task            string `json:"task" required:"true"`
	ScrollID        string `json:"scroll_id" required:"true"`
	NavigateEarlier *bool  `json:"navigate_earlier"`
	NextIteration   bool   `json:"next_iteration"`
	ModelEvents     bool   `json:"model_events"`
}

func (r *nextSampleRequest) earlier() bool { return r.NavigateEarlier == nil || *r.NavigateEarlier }

// nextDebugImageSample steps from the current debug image.
func (s *service) nextDebugImageSample(ctx context.Context, c *rpc.Call, req *nextSampleRequest) (*imageSampleResponse, error) {
	if _, err := events.Readable(ctx, &s.d.Env, c.Company(), req.Task, req.ModelEvents); err != nil {
		return nil, err
	}
	var st events.ImageSampleState
	if err := s.scrolls.LoadState(ctx, req.ScrollID, c.Company(), imageSampleKind, &st); err != nil {
		return nil, err
	}
	if st.Task != req.Task {
		return nil, stateMismatch(req.ScrollID)
	}
	smp := &events.Samples{DB: s.d.DB}
	res, err := smp.NextImage(ctx, &st, req.earlier(), req.NextIteration)
	if err != nil {
		return nil, err
	}
	if len(res.Events) > 0 {
		if err := s.scrolls.SaveState(ctx, req.ScrollID, c.Company(), imageSampleKind, &st); err != nil {
			return nil, err
		}
	}
	return imageAnswer(req.ScrollID, res), nil
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
	if _, err := events.Readable(ctx, &s.d.Env, c.Company(), req.Task, req.ModelEvents); err != nil {
		return nil, err
	}
	current := req.NavigateCurrentMetric == nil || *req.NavigateCurrentMetric
	smp := &events.Samples{DB: s.d.DB}
	var st events.PlotSampleState
	id := req.ScrollID
	refresh := req.Refresh
	if id != "" {
		if err := s.scrolls.LoadState(ctx, id, c.Company(), plotSampleKind, &st); err != nil {
			return nil, err
		}
		if st.Task != req.Task || st.NavigateCurrentMetric != current || (current && st.Metric != req.Metric) {
			return nil, stateMismatch(id)
		}
	} else {
		st, refresh = events.PlotSampleState{Task: req.Task, Metric: req.Metric, NavigateCurrentMetric: current}, true
	}
	if refresh {
		metric := ""
		if current {
			metric = req.Metric
		}
		ms, err := smp.PlotRanges(ctx, req.Task, metric)
		if err != nil {
			return nil, err
		}
		st.Metrics = ms
	}
	res, err := smp.GetPlots(ctx, &st, req.Metric, req.Iteration)
	if err != nil {
		return nil, err
	}
	if id, err = s.keepState(ctx, c, id, plotSampleKind, &st); err != nil {
		return nil, err
	}
	return plotAnswer(id, res), nil
}

// nextPlotSample steps from the current plots.
func (s *service) nextPlotSample(ctx context.Context, c *rpc.Call, req *nextSampleRequest) (*plotSampleResponse, error) {
	if _, err := events.Readable(ctx, &s.d.Env, c.Company(), req.Task, req.ModelEvents); err != nil {
		return nil, err
	}
	var st events.PlotSampleState
	if err := s.scrolls.LoadState(ctx, req.ScrollID, c.Company(), plotSampleKind, &st); err != nil {
		return nil, err
	}
	if st.Task != req.Task {
		return nil, stateMismatch(req.ScrollID)
	}
	smp := &events.Samples{DB: s.d.DB}
	res, err := smp.NextPlots(ctx, &st, req.earlier(), req.NextIteration)
	if err != nil {
		return nil, err
	}
	if len(res.Events) > 0 {
		if err := s.scrolls.SaveState(ctx, req.ScrollID, c.Company(), plotSampleKind, &st); err != nil {
			return nil, err
		}
	}
	return plotAnswer(req.ScrollID, res), nil
}
