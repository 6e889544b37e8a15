package workers

import (
	"context"

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
	Items          []statItem `json:"items" required:"true"`
	SplitByVariant bool       `json:"split_by_variant"`
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

type aggregationValues struct {
	Aggregation string    `json:"aggregation"`
	Values      []float64 `json:"values"`
}

type metricStats struct {
	Metric  string              `json:"metric"`
	Variant *string             `json:"variant,omitempty"`
	Dates   []int64             `json:"dates"`
	Stats   []aggregationValues `json:"stats"`
}

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
	stats, err := workers.Stats(ctx, &s.d.Env, req.toRange(c.Company()), items, req.SplitByVariant)
	if err != nil {
		return nil, err
	}
	resp := &getStatsResponse{Workers: make([]*workerStats, len(stats))}
	for i, ws := range stats {
		out := &workerStats{Worker: ws.Worker, Metrics: make([]*metricStats, len(ws.Metrics))}
		for j, ms := range ws.Metrics {
			m := &metricStats{Metric: ms.Metric, Variant: ms.Variant, Dates: ms.Dates, Stats: make([]aggregationValues, len(ms.Stats))}
			for k, a := range ms.Stats {
				m.Stats[k] = aggregationValues{Aggregation: a.Aggregation, Values: a.Values}
			}
			out.Metrics[j] = m
		}
		resp.Workers[i] = out
	}
	return resp, nil
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
