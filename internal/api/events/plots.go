package events

import (
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/rpc"
)

type taskPlotsRequest struct {
	Task        string           `json:"task" required:"true"`
	Iters       int              `json:"iters"`
	Metrics     []metricVariants `json:"metrics"`
	ScrollID    string           `json:"scroll_id"`
	NoScroll    bool             `json:"no_scroll"`
	ModelEvents bool             `json:"model_events"`
}

func (r *taskPlotsRequest) Validate() error {
	if r.Iters < 0 {
		return apierr.Validation("iters", "must not be negative")
	}
	return validateMetrics("metrics", r.Metrics)
}

type taskPlotsResponse struct {
	Plots    []json.RawMessage `json:"plots"`
	Returned int               `json:"returned"`
	Total    int               `json:"total"`
	ScrollID *string           `json:"scroll_id"`
}

// getTaskPlots returns, per metric and variant, the plots of the last
// `iters` iterations (one read: no scroll).
func (s *service) getTaskPlots(ctx context.Context, c *rpc.Call, req *taskPlotsRequest) (*taskPlotsResponse, error) {
	plots, err := events.TaskPlots(ctx, &s.d.Env, c.Company(), req.Task, req.ModelEvents, filters(req.Metrics), max(req.Iters, 1))
	if err != nil {
		return nil, err
	}
	return &taskPlotsResponse{Plots: plots, Returned: len(plots), Total: min(len(plots), maxTotal)}, nil
}

type multiTaskPlotsRequest struct {
	Tasks                  taskIDs          `json:"tasks" required:"true"`
	Iters                  int              `json:"iters"`
	LastItersPerTaskMetric *bool            `json:"last_iters_per_task_metric"`
	Metrics                []metricVariants `json:"metrics"`
	ScrollID               string           `json:"scroll_id"`
	NoScroll               bool             `json:"no_scroll"`
	ModelEvents            bool             `json:"model_events"`
}

func (r *multiTaskPlotsRequest) Validate() error {
	if len(r.Tasks) == 0 {
		return apierr.Validation("tasks", "at least one task is required")
	}
	if r.Iters < 0 {
		return apierr.Validation("iters", "must not be negative")
	}
	return validateMetrics("metrics", r.Metrics)
}

// plotGroup is the plots of one task at one iteration.
type plotGroup struct {
	Name  string            `json:"name"`
	Plots []json.RawMessage `json:"plots"`
}

type multiTaskPlotsResponse struct {
	Plots    map[string]map[string]map[string]map[string]*plotGroup `json:"plots"`
	Returned int                                                    `json:"returned"`
	Total    int                                                    `json:"total"`
	ScrollID *string                                                `json:"scroll_id"`
}

// getMultiTaskPlots returns the plots of several tasks at their last
// iterations, as {metric: {variant: {task: {iter: {name, plots}}}}}.
func (s *service) getMultiTaskPlots(ctx context.Context, c *rpc.Call, req *multiTaskPlotsRequest) (*multiTaskPlotsResponse, error) {
	var cur events.MultiPlotsCursor
	if req.ScrollID != "" {
		if err := s.scrolls.Open(req.ScrollID, c.Company(), "multi_plots", &cur); err != nil {
			return nil, err
		}
	} else {
		cur = events.MultiPlotsCursor{Tasks: req.Tasks, Model: req.ModelEvents, Metrics: filters(req.Metrics), Iters: max(req.Iters, 1),
			PerMetric: req.LastItersPerTaskMetric == nil || *req.LastItersPerTaskMetric}
	}
	groups, err := events.MultiTaskPlots(ctx, &s.d.Env, c.Company(), &cur, req.ScrollID == "", maxTotal)
	if err != nil {
		return nil, err
	}
	out := &multiTaskPlotsResponse{Plots: PlotsByTask(groups), Returned: len(groups), Total: cur.Total}
	if !req.NoScroll {
		id, err := s.scrolls.Sign(c.Company(), "multi_plots", cur)
		if err != nil {
			return nil, err
		}
		out.ScrollID = &id
	}
	return out, nil
}

// taskMetric is the API's events.task_metric_variants.
type taskMetric struct {
	Task     string   `json:"task"`
	Metric   *string  `json:"metric"`
	Variants []string `json:"variants"`
}

type browseRequest struct {
	Metrics         []taskMetric `json:"metrics" required:"true"`
	Iters           *int         `json:"iters"`
	NavigateEarlier *bool        `json:"navigate_earlier"`
	Refresh         bool         `json:"refresh"`
	ScrollID        string       `json:"scroll_id"`
	ModelEvents     bool         `json:"model_events"`
}

func (r *browseRequest) Validate() error {
	if len(r.Metrics) == 0 {
		return apierr.Validation("metrics", "at least one item is required")
	}
	for _, m := range r.Metrics {
		if m.Task == "" {
			return apierr.Required("metrics.task")
		}
	}
	if r.Iters != nil && *r.Iters < 1 {
		return apierr.Validation("iters", "must be at least 1")
	}
	return nil
}

// taskMetrics groups the request per task; an entry without metric asks
// for all of the task's metrics.
func (r *browseRequest) taskMetrics() (events.TaskMetrics, []string) {
	tm := events.TaskMetrics{}
	var order []string
	all := map[string]bool{}
	for _, m := range r.Metrics {
		if tm[m.Task] == nil {
			tm[m.Task] = map[string][]string{}
			order = append(order, m.Task)
		}
		if m.Metric == nil {
			all[m.Task] = true
			continue
		}
		tm[m.Task][*m.Metric] = m.Variants
	}
	for t := range all {
		tm[t] = map[string][]string{}
	}
	return tm, order
}

type iterationOut struct {
	Iter   int64             `json:"iter"`
	Events []json.RawMessage `json:"events"`
}

type taskIterations struct {
	Task       string         `json:"task"`
	Iterations []iterationOut `json:"iterations"`
}

type browseResponse struct {
	ScrollID string           `json:"scroll_id"`
	Metrics  []taskIterations `json:"metrics"`
}

// debugImages pages through tasks' debug images by iteration.
func (s *service) debugImages(ctx context.Context, c *rpc.Call, req *browseRequest) (*browseResponse, error) {
	return s.browse(ctx, c, req, events.Image)
}

// plots pages through tasks' plots by iteration.
func (s *service) plots(ctx context.Context, c *rpc.Call, req *browseRequest) (*browseResponse, error) {
	return s.browse(ctx, c, req, events.Plot)
}

func (s *service) browse(ctx context.Context, c *rpc.Call, req *browseRequest, typ events.Type) (*browseResponse, error) {
	tm, order := req.taskMetrics()
	iters := 1
	if req.Iters != nil {
		iters = *req.Iters
	}
	id, tasks, pages, err := events.Browse(ctx, &s.d.Env, s.scrolls, c.Company(), events.BrowseRequest{Type: typ, Metrics: tm,
		Order: order, Iters: iters, Earlier: req.NavigateEarlier == nil || *req.NavigateEarlier, Refresh: req.Refresh,
		ScrollID: req.ScrollID, Model: req.ModelEvents})
	if err != nil {
		return nil, err
	}
	return &browseResponse{ScrollID: id, Metrics: IterationsByTask(tasks, pages)}, nil
}
