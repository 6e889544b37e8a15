package events

import (
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// maxTotal caps the totals of event reads (the seeds' limit).
const maxTotal = 10000

// metricVariants is the API's events.metric_variants.
type metricVariants struct {
	Metric   string   `json:"metric"`
	Variants []string `json:"variants"`
}

func validateMetrics(field string, ms []metricVariants) error {
	for _, m := range ms {
		if m.Metric == "" {
			return apierr.Required(field, "metric")
		}
	}
	return nil
}

func filters(ms []metricVariants) []eventstore.MetricFilter {
	if len(ms) == 0 {
		return nil
	}
	out := make([]eventstore.MetricFilter, len(ms))
	for i, m := range ms {
		out[i] = eventstore.MetricFilter{Metric: m.Metric, Variants: m.Variants}
	}
	return out
}

// eventTypeParam reads an event_type value ("", "*" and "all" mean every
// type).
func eventTypeParam(s string) (events.Type, error) {
	switch s {
	case "", "*", "all":
		return "", nil
	}
	if !events.ValidType(s) {
		return "", apierr.Validation("event_type", "invalid value %q", s)
	}
	return events.Type(s), nil
}

func validOrder(o string) error {
	if o != "" && o != "asc" && o != "desc" {
		return apierr.Validation("order", "must be one of asc, desc")
	}
	return nil
}

type taskEventsRequest struct {
	Task        string           `json:"task" required:"true"`
	BatchSize   int              `json:"batch_size"`
	EventType   string           `json:"event_type"`
	Metrics     []metricVariants `json:"metrics"`
	Order       string           `json:"order"`
	ScrollID    string           `json:"scroll_id"`
	CountTotal  *bool            `json:"count_total"`
	ModelEvents bool             `json:"model_events"`
}

func (r *taskEventsRequest) Validate() error {
	if r.BatchSize < 0 {
		return apierr.Validation("batch_size", "must not be negative")
	}
	if _, err := eventTypeParam(r.EventType); err != nil {
		return err
	}
	if err := validOrder(r.Order); err != nil {
		return err
	}
	return validateMetrics("metrics", r.Metrics)
}

type taskEventsResponse struct {
	Events   []json.RawMessage `json:"events"`
	Returned int               `json:"returned"`
	Total    *int              `json:"total"`
	ScrollID string            `json:"scroll_id"`
}

func batchSize(n, def, limit int) int {
	if n <= 0 {
		n = def
	}
	return min(n, limit)
}

func (s *service) getTaskEvents(ctx context.Context, c *rpc.Call, req *taskEventsRequest) (*taskEventsResponse, error) {
	var cur events.EventsCursor
	if req.ScrollID != "" {
		if err := s.scrolls.Open(req.ScrollID, c.Company(), "task_events", &cur); err != nil {
			return nil, err
		}
		if req.BatchSize > 0 {
			cur.Batch = req.BatchSize
		}
	} else {
		typ, err := eventTypeParam(req.EventType)
		if err != nil {
			return nil, err
		}
		cur = events.EventsCursor{Task: req.Task, Model: req.ModelEvents, Type: typ, Metrics: filters(req.Metrics), Desc: req.Order == "desc", Batch: req.BatchSize}
	}
	cur.Batch = batchSize(cur.Batch, 500, maxTotal)
	count := req.ScrollID == "" && (req.CountTotal == nil || *req.CountTotal)
	evs, err := events.TaskEvents(ctx, &s.d.Env, c.Company(), &cur, count, maxTotal)
	if err != nil {
		return nil, err
	}
	id, err := s.scrolls.Sign(c.Company(), "task_events", cur)
	if err != nil {
		return nil, err
	}
	return &taskEventsResponse{Events: evs, Returned: len(evs), Total: cur.Total, ScrollID: id}, nil
}

type scalarMetricDataRequest struct {
	Task        string `json:"task" required:"true"`
	Metric      string `json:"metric" required:"true"`
	ScrollID    string `json:"scroll_id"`
	NoScroll    bool   `json:"no_scroll"`
	ModelEvents bool   `json:"model_events"`
}

type scalarMetricDataResponse struct {
	Events   []json.RawMessage `json:"events"`
	Returned int               `json:"returned"`
	Total    int               `json:"total"`
	ScrollID *string           `json:"scroll_id"`
}

// getScalarMetricData pages through one metric's scalar events, highest
// iterations first, 500 per call.
func (s *service) getScalarMetricData(ctx context.Context, c *rpc.Call, req *scalarMetricDataRequest) (*scalarMetricDataResponse, error) {
	var cur events.MetricDataCursor
	if req.ScrollID != "" {
		if err := s.scrolls.Open(req.ScrollID, c.Company(), "metric_data", &cur); err != nil {
			return nil, err
		}
	} else {
		cur = events.MetricDataCursor{Task: req.Task, Model: req.ModelEvents, Metric: req.Metric}
	}
	evs, err := events.ScalarMetricData(ctx, &s.d.Env, c.Company(), &cur, req.ScrollID == "", maxTotal)
	if err != nil {
		return nil, err
	}
	resp := &scalarMetricDataResponse{Events: evs, Returned: len(evs), Total: cur.Total}
	if !req.NoScroll {
		id, err := s.scrolls.Sign(c.Company(), "metric_data", cur)
		if err != nil {
			return nil, err
		}
		resp.ScrollID = &id
	}
	return resp, nil
}

type iterRawRequest struct {
	Task        string          `json:"task" required:"true"`
	Metric      *metricVariants `json:"metric" required:"true"`
	Key         string          `json:"key"`
	BatchSize   int             `json:"batch_size"`
	CountTotal  bool            `json:"count_total"`
	ScrollID    string          `json:"scroll_id"`
	ModelEvents bool            `json:"model_events"`
}

func (r *iterRawRequest) Validate() error {
	if r.BatchSize < 0 {
		return apierr.Validation("batch_size", "should be a non negative number")
	}
	if r.Metric.Metric == "" {
		return apierr.Required("metric.metric")
	}
	return validKey(r.Key)
}

func validKey(k string) error {
	switch k {
	case "", "iter", "timestamp", "iso_time":
		return nil
	}
	return apierr.Validation("key", "must be one of iter, timestamp, iso_time")
}

type iterRawResponse struct {
	Returned int                       `json:"returned"`
	Total    *int                      `json:"total"`
	ScrollID string                    `json:"scroll_id"`
	Variants map[string]map[string]any `json:"variants"`
}

// maxRawBatch is the largest batch of scalar_metrics_iter_raw.
const maxRawBatch = 200000

// scalarMetricsIterRaw pages through one metric's points as arrays per
// variant, ordered by iteration or time.
func (s *service) scalarMetricsIterRaw(ctx context.Context, c *rpc.Call, req *iterRawRequest) (*iterRawResponse, error) {
	var cur events.RawCursor
	if req.ScrollID != "" {
		if err := s.scrolls.Open(req.ScrollID, c.Company(), "iter_raw", &cur); err != nil {
			return nil, err
		}
		if req.BatchSize > 0 {
			cur.Batch = req.BatchSize
		}
	} else {
		key := req.Key
		if key == "" {
			key = "iter"
		}
		cur = events.RawCursor{Task: req.Task, Model: req.ModelEvents, Metric: eventstore.MetricFilter{Metric: req.Metric.Metric, Variants: req.Metric.Variants},
			Key: key, Batch: req.BatchSize}
	}
	cur.Batch = batchSize(cur.Batch, 10000, maxRawBatch)
	pts, err := events.RawScalars(ctx, &s.d.Env, c.Company(), &cur, req.ScrollID == "" && req.CountTotal)
	if err != nil {
		return nil, err
	}
	resp := &iterRawResponse{Returned: pts.Returned, Total: cur.Total, Variants: map[string]map[string]any{}}
	for name, v := range pts.Variants {
		resp.Variants[name] = map[string]any{"y": floats(v.Y), cur.Key: v.Keys}
	}
	id, err := s.scrolls.Sign(c.Company(), "iter_raw", cur)
	if err != nil {
		return nil, err
	}
	resp.ScrollID = id
	return resp, nil
}
