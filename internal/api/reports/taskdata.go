package reports

import (
	"context"
	"encoding/json"

	eventsapi "github.com/trove-ml/trove/internal/api/events"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/reports"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// chartsRequest asks for debug images or plots.
type chartsRequest struct {
	Iters                  int                        `json:"iters"`
	Metrics                []eventsapi.MetricVariants `json:"metrics"`
	LastItersPerTaskMetric *bool                      `json:"last_iters_per_task_metric"`
}

func (r *chartsRequest) validate(field string) error {
	if r == nil {
		return nil
	}
	if r.Iters < 0 {
		return apierr.Validation(field+".iters", "must not be negative")
	}
	return eventsapi.ValidateMetrics(field+".metrics", r.Metrics)
}

func (r *chartsRequest) charts() *reports.Charts {
	if r == nil {
		return nil
	}
	return &reports.Charts{Iters: r.Iters, Metrics: filters(r.Metrics), PerMetric: r.LastItersPerTaskMetric == nil || *r.LastItersPerTaskMetric}
}

type histogramRequest struct {
	Samples *int                       `json:"samples"`
	Key     string                     `json:"key"`
	Metrics []eventsapi.MetricVariants `json:"metrics"`
}

func (r *histogramRequest) validate() error {
	if r == nil {
		return nil
	}
	if r.Samples != nil && (*r.Samples < 0 || *r.Samples > events.DefaultSamples) {
		return apierr.Validation("scalar_metrics_iter_histogram.samples", "must be between 0 and %d", events.DefaultSamples)
	}
	if err := eventsapi.ValidKey(r.Key); err != nil {
		return err
	}
	return eventsapi.ValidateMetrics("scalar_metrics_iter_histogram.metrics", r.Metrics)
}

func (r *histogramRequest) histogram() *reports.Histogram {
	if r == nil {
		return nil
	}
	h := &reports.Histogram{Samples: events.DefaultSamples, Key: events.KeyIter, Metrics: filters(r.Metrics)}
	if r.Samples != nil {
		h.Samples = *r.Samples
	}
	if r.Key != "" {
		h.Key = events.HistKey(r.Key)
	}
	return h
}

func filters(ms []eventsapi.MetricVariants) []eventstore.MetricFilter {
	var out []eventstore.MetricFilter
	for _, m := range ms {
		out = append(out, eventstore.MetricFilter{Metric: m.Metric, Variants: m.Variants})
	}
	return out
}

type getTaskDataRequest struct {
	query.Request
	Project            query.StringList  `json:"project"`
	IncludeSubprojects bool              `json:"include_subprojects"`
	ModelEvents        bool              `json:"model_events"`
	DebugImages        *chartsRequest    `json:"debug_images"`
	Plots              *chartsRequest    `json:"plots"`
	Histogram          *histogramRequest `json:"scalar_metrics_iter_histogram"`
	// SingleValueMetrics is an object when given (no options yet).
	SingleValueMetrics *map[string]json.RawMessage `json:"single_value_metrics"`
}

func (r *getTaskDataRequest) Validate() error {
	if err := r.DebugImages.validate("debug_images"); err != nil {
		return err
	}
	if err := r.Plots.validate("plots"); err != nil {
		return err
	}
	return r.Histogram.validate()
}

// getTaskDataResponse carries each chart kind only when asked (then
// possibly empty).
type getTaskDataResponse struct {
	Tasks        []map[string]any `json:"tasks"`
	ScrollID     *string          `json:"scroll_id,omitempty"`
	DebugImages  any              `json:"debug_images,omitempty"`
	Plots        any              `json:"plots,omitempty"`
	Histogram    any              `json:"scalar_metrics_iter_histogram,omitempty"`
	SingleValues any              `json:"single_value_metrics,omitempty"`
}

// getTaskData answers the charts of a report: the tasks (or models) a
// query finds and, for each chart kind asked, their events.
func (s *service) getTaskData(ctx context.Context, c *rpc.Call, req *getTaskDataRequest) (*getTaskDataResponse, error) {
	in := reports.TaskDataInput{Company: c.Company(), Request: &req.Request, Body: c.Body, Projects: req.Project,
		IncludeSubprojects: req.IncludeSubprojects, AllowPublic: req.AllowPublic == nil || *req.AllowPublic,
		ModelEvents: req.ModelEvents, DebugImages: req.DebugImages.charts(), Plots: req.Plots.charts(),
		Histogram: req.Histogram.histogram(), SingleValues: req.SingleValueMetrics != nil}
	res, err := reports.GetTaskData(ctx, &s.d.Env, in)
	if err != nil {
		return nil, err
	}
	out := &getTaskDataResponse{Tasks: res.Items, ScrollID: res.ScrollID}
	if in.DebugImages != nil {
		out.DebugImages = eventsapi.IterationsByTask(res.Images, res.ImagePages)
	}
	if in.Plots != nil {
		out.Plots = eventsapi.PlotsByTask(res.Plots)
	}
	if in.Histogram != nil {
		out.Histogram = eventsapi.CurvesByTask(res.Histograms, in.Histogram.Key)
	}
	if in.SingleValues {
		out.SingleValues = eventsapi.SingleValuesByTask(res.SingleValues)
	}
	return out, nil
}
