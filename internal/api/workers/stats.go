package workers

import (
	"context"
	"sort"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
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

// getMetricKeys lists the statistic categories and metrics stored for the
// workers (all of the company's when none are named), most frequent first.
func (s *service) getMetricKeys(ctx context.Context, c *rpc.Call, req *getMetricKeysRequest) (*getMetricKeysResponse, error) {
	keys, err := s.d.DB.WorkerStatKeys(ctx, s.d.DB.Read(), c.Company(), req.WorkerIDs)
	if err != nil {
		return nil, err
	}
	if len(keys) == 0 {
		return nil, apierr.WorkerStatsNotFound("no statistics for the company workers").With("workers", req.WorkerIDs)
	}
	// Categories in order of their total count, metrics by their own.
	totals := map[string]int{}
	var order []string
	byCategory := map[string][]string{}
	for _, k := range keys {
		if _, ok := totals[k.Category]; !ok {
			order = append(order, k.Category)
		}
		totals[k.Category] += k.Count
		byCategory[k.Category] = append(byCategory[k.Category], k.Metric)
	}
	sort.SliceStable(order, func(i, j int) bool { return totals[order[i]] > totals[order[j]] })
	resp := &getMetricKeysResponse{Categories: make([]metricCategory, 0, len(order))}
	for _, cat := range order {
		resp.Categories = append(resp.Categories, metricCategory{Name: cat, MetricKeys: byCategory[cat]})
	}
	return resp, nil
}

// rangeRequest is the time range of the statistics reads.
type rangeRequest struct {
	api.DateRange
	WorkerIDs []string `json:"worker_ids"`
}

func (r *rangeRequest) statsRange(company string) (workers.Buckets, store.StatsRange) {
	b := workers.NewBuckets(*r.FromDate, *r.ToDate, *r.Interval)
	return b, store.StatsRange{Company: company, From: b.From, To: b.To, Bucket: b.Width, Workers: r.WorkerIDs}
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
			return apierr.Validation("items.key", "field is required")
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

// getStats aggregates the asked metrics per worker (and variant) over time
// buckets; every bucket of the range is returned, 0 where a worker's
// metric has no value.
func (s *service) getStats(ctx context.Context, c *rpc.Call, req *getStatsRequest) (*getStatsResponse, error) {
	buckets, sr := req.statsRange(c.Company())
	aggs := map[string][]string{}
	var metrics []string
	for _, it := range req.Items {
		if _, ok := aggs[it.Key]; !ok {
			metrics = append(metrics, it.Key)
		}
		if !contains(aggs[it.Key], it.Aggregation) {
			aggs[it.Key] = append(aggs[it.Key], it.Aggregation)
		}
	}
	rows, err := s.d.DB.AggregateWorkerStats(ctx, s.d.DB.Read(), sr, metrics, req.SplitByVariant)
	if err != nil {
		return nil, err
	}
	resp := &getStatsResponse{Workers: []*workerStats{}}
	index := map[int64]int{}
	for i, at := range buckets.Starts {
		index[at] = i
	}
	var ws *workerStats
	var ms *metricStats
	for _, r := range rows {
		if ws == nil || ws.Worker != r.Worker {
			ws = &workerStats{Worker: r.Worker, Metrics: []*metricStats{}}
			resp.Workers = append(resp.Workers, ws)
			ms = nil
		}
		if ms == nil || ms.Metric != r.Metric || (req.SplitByVariant && *ms.Variant != r.Variant) {
			ms = newMetricStats(r.Metric, buckets.Starts, aggs[r.Metric])
			if req.SplitByVariant {
				v := r.Variant
				ms.Variant = &v
			}
			ws.Metrics = append(ws.Metrics, ms)
		}
		i, ok := index[r.At]
		if !ok {
			continue // the incomplete last bucket
		}
		for _, st := range ms.Stats {
			switch st.Aggregation {
			case "avg":
				st.Values[i] = r.Avg
			case "min":
				st.Values[i] = r.Min
			case "max":
				st.Values[i] = r.Max
			}
		}
	}
	return resp, nil
}

func newMetricStats(metric string, dates []int64, aggs []string) *metricStats {
	ms := &metricStats{Metric: metric, Dates: dates, Stats: make([]aggregationValues, len(aggs))}
	for i, a := range aggs {
		ms.Stats[i] = aggregationValues{Aggregation: a, Values: make([]float64, len(dates))}
	}
	return ms
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
	buckets, sr := req.statsRange(c.Company())
	resp := &getActivityReportResponse{}
	for _, part := range []struct {
		active bool
		out    *activitySeries
	}{{false, &resp.Total}, {true, &resp.Active}} {
		counts, err := s.d.DB.WorkerActivity(ctx, s.d.DB.Read(), sr, part.active)
		if err != nil {
			return nil, err
		}
		part.out.Dates = buckets.Starts
		part.out.Counts = make([]int, len(buckets.Starts))
		for i, at := range buckets.Starts {
			part.out.Counts[i] = counts[at]
		}
	}
	return resp, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
