package workers

import (
	"context"
	"slices"
	"strings"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/workers"
)

type getMetricKeysRequest struct {
	WorkerIDs []string `json:"worker_ids"`
}

type metricCategory struct {
	Name       string   `json:"name"`
	MetricKeys []string `json:"metric_keys"`
}

type getMetricKeysResponse struct {
	Categories []metricCategory `json:"categories"`
}

func (s *service) getMetricKeys(ctx context.Context, c *rpc.Call, req *getMetricKeysRequest) (*getMetricKeysResponse, error) {
	cats, err := workers.MetricKeys(ctx, &s.d.Env, c.Company(), req.WorkerIDs)
	if err != nil {
		return nil, err
	}
	resp := &getMetricKeysResponse{Categories: make([]metricCategory, len(cats))}
	for i, cat := range cats {
		resp.Categories[i] = metricCategory{Name: cat.Name, MetricKeys: cat.Metrics}
	}
	return resp, nil
}

// rangeRequest is the time range of the statistics reads.
type rangeRequest struct {
	api.DateRange
	WorkerIDs []string `json:"worker_ids"`
}

func (r *rangeRequest) toRange(company string) workers.Range {
	return workers.Range{Company: company, From: *r.FromDate, To: *r.ToDate, Interval: *r.Interval, Workers: r.WorkerIDs}
}

// statItem asks for one metric with one aggregation.
type statItem struct {
	Key         string `json:"key"`
	Aggregation string `json:"aggregation"`
	// Category is the schema's name for aggregation.
	Category string `json:"category"`
}

type getStatsRequest struct {
	rangeRequest
	Items []statItem `json:"items" required:"true"`
	// SplitByVariant splits by variant before 2.32; obsolete (ignored)
	// from 2.32, where SplitByResource adds per-GPU series instead.
	SplitByVariant  bool `json:"split_by_variant"`
	SplitByResource bool `json:"split_by_resource"`
}

func (r *getStatsRequest) Validate() error {
	if err := r.rangeRequest.Validate(); err != nil {
		return err
	}
	if len(r.Items) == 0 {
		return apierr.Validation("items", "at least one item is required")
	}
	for i := range r.Items {
		it := &r.Items[i]
		if it.Key == "" {
			return apierr.Required("items.key")
		}
		if !slices.Contains(workers.StatKeys, it.Key) {
			return apierr.Validation("items.key", "must be one of %s, got %q", strings.Join(workers.StatKeys, ", "), it.Key)
		}
		if it.Aggregation == "" {
			it.Aggregation = it.Category
		}
		switch it.Aggregation {
		case "":
			it.Aggregation = "avg"
		case "avg", "min", "max":
		default:
			return apierr.Validation("items.aggregation", "must be one of avg, min, max, got %s", it.Aggregation)
		}
	}
	return nil
}

// aggregationValues is one aggregation of a metric; from 2.32 it carries
// its dates and (possibly empty) resource_series.
type aggregationValues struct {
	Aggregation    string            `json:"aggregation"`
	Dates          *[]int64          `json:"dates,omitempty"`
	Values         []float64         `json:"values"`
	ResourceSeries *[]resourceSeries `json:"resource_series,omitempty"`
}

type resourceSeries struct {
	Name   string    `json:"name"`
	Values []float64 `json:"values"`
}

// metricStats: the dates are the metric's (before 2.32 only there).
type metricStats struct {
	Metric  string              `json:"metric"`
	Variant *string             `json:"variant,omitempty"`
	Dates   *[]int64            `json:"dates,omitempty"`
	Stats   []aggregationValues `json:"stats"`
}

// statsPerResource is the version of the per-aggregation shape.
var statsPerResource = rpc.Version{Major: 2, Minor: 32}

type workerStats struct {
	Worker  string         `json:"worker"`
	Metrics []*metricStats `json:"metrics"`
}

type getStatsResponse struct {
	Workers []*workerStats `json:"workers"`
}

// getStats aggregates the asked metrics per worker over time buckets.
func (s *service) getStats(ctx context.Context, c *rpc.Call, req *getStatsRequest) (*getStatsResponse, error) {
	items := make([]workers.StatItem, len(req.Items))
	for i, it := range req.Items {
		items[i] = workers.StatItem{Metric: it.Key, Aggregation: it.Aggregation}
	}
	newShape := c.Version.AtLeast(statsPerResource)
	byVariant := req.SplitByVariant && !newShape
	byResource := req.SplitByResource && newShape
	stats, err := workers.Stats(ctx, &s.d.Env, req.toRange(c.Company()), items, byVariant, byResource)
	if err != nil {
		return nil, err
	}
	resp := &getStatsResponse{Workers: make([]*workerStats, len(stats))}
	for i, ws := range stats {
		out := &workerStats{Worker: ws.Worker, Metrics: make([]*metricStats, len(ws.Metrics))}
		for j, ms := range ws.Metrics {
			// The metric keeps its dates at every version: 2.32 moved them
			// into each aggregation, but Trove's own UI and older web
			// apps read them here, and an extra field harms no client.
			m := &metricStats{Metric: ms.Metric, Variant: ms.Variant, Dates: nonNil(ms.Dates), Stats: make([]aggregationValues, len(ms.Stats))}
			for k, a := range ms.Stats {
				av := aggregationValues{Aggregation: a.Aggregation, Values: a.Values}
				if newShape {
					av.Dates = nonNil(ms.Dates)
					rs := make([]resourceSeries, len(a.Resources))
					for n, r := range a.Resources {
						rs[n] = resourceSeries{Name: r.Name, Values: r.Values}
					}
					av.ResourceSeries = &rs
				}
				m.Stats[k] = av
			}
			out.Metrics[j] = m
		}
		resp.Workers[i] = out
	}
	return resp, nil
}

// nonNil keeps an empty date list a list in the answer.
func nonNil(d []int64) *[]int64 {
	if d == nil {
		d = []int64{}
	}
	return &d
}

type activitySeries struct {
	Dates  []int64 `json:"dates"`
	Counts []int   `json:"counts"`
}

type getActivityReportResponse struct {
	Total  activitySeries `json:"total"`
	Active activitySeries `json:"active"`
}

// getActivityReport counts per time bucket the workers that reported
// statistics (total) and those that reported while running a task (active).
func (s *service) getActivityReport(ctx context.Context, c *rpc.Call, req *rangeRequest) (*getActivityReportResponse, error) {
	total, active, err := workers.ActivityReport(ctx, &s.d.Env, req.toRange(c.Company()))
	if err != nil {
		return nil, err
	}
	return &getActivityReportResponse{Total: activitySeries(total), Active: activitySeries(active)}, nil
}
