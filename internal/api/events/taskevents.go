package events

import (
	"context"
	"encoding/json"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
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
			return apierr.Validation(field+".metric", "field is required")
		}
	}
	return nil
}

func filters(ms []metricVariants) []store.MetricFilter {
	if len(ms) == 0 {
		return nil
	}
	out := make([]store.MetricFilter, len(ms))
	for i, m := range ms {
		out[i] = store.MetricFilter{Metric: m.Metric, Variants: m.Variants}
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

// eventsCursor is the state carried by get_task_events scroll ids: the
// first request's selection, the total and the position reached.
type eventsCursor struct {
	Task    string               `json:"t"`
	Model   bool                 `json:"m,omitempty"`
	Type    events.Type          `json:"y,omitempty"`
	Metrics []store.MetricFilter `json:"f,omitempty"`
	Desc    bool                 `json:"d,omitempty"`
	Batch   int                  `json:"n"`
	Total   *int                 `json:"c,omitempty"`
	Pos     *events.Pos          `json:"at,omitempty"`
	Done    bool                 `json:"e,omitempty"`
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
	var cur eventsCursor
	if req.ScrollID != "" {
		if err := s.scrolls.Open(req.ScrollID, c.Company(), "task_events", &cur); err != nil {
			return nil, err
		}
		if req.BatchSize > 0 {
			cur.Batch = req.BatchSize
		}
	} else {
		typ, _ := eventTypeParam(req.EventType)
		cur = eventsCursor{Task: req.Task, Model: req.ModelEvents, Type: typ, Metrics: filters(req.Metrics), Desc: req.Order == "desc", Batch: req.BatchSize}
	}
	cur.Batch = batchSize(cur.Batch, 500, maxTotal)
	if _, err := events.Readable(ctx, &s.d.Env, c.Company(), cur.Task, cur.Model); err != nil {
		return nil, err
	}
	sel := events.Selection{Task: cur.Task, Type: cur.Type, Metrics: cur.Metrics, Desc: cur.Desc}
	if req.ScrollID == "" && (req.CountTotal == nil || *req.CountTotal) {
		n, err := s.reader.Count(ctx, sel, maxTotal)
		if err != nil {
			return nil, err
		}
		cur.Total = &n
	}
	resp := &taskEventsResponse{Events: []json.RawMessage{}, Total: cur.Total}
	if !cur.Done {
		evs, last, err := s.reader.Events(ctx, sel, cur.Pos, cur.Batch)
		if err != nil {
			return nil, err
		}
		for _, e := range evs {
			resp.Events = append(resp.Events, e)
		}
		cur.Pos = last
		cur.Done = len(evs) < cur.Batch
	}
	resp.Returned = len(resp.Events)
	id, err := s.scrolls.Sign(c.Company(), "task_events", cur)
	if err != nil {
		return nil, err
	}
	resp.ScrollID = id
	return resp, nil
}

type scalarMetricDataRequest struct {
	Task        string `json:"task" required:"true"`
	Metric      string `json:"metric" required:"true"`
	ScrollID    string `json:"scroll_id"`
	NoScroll    bool   `json:"no_scroll"`
	ModelEvents bool   `json:"model_events"`
}

// metricDataCursor is the state of get_scalar_metric_data scroll ids.
type metricDataCursor struct {
	Task   string      `json:"t"`
	Model  bool        `json:"m,omitempty"`
	Metric string      `json:"f"`
	Total  int         `json:"c"`
	Pos    *events.Pos `json:"at,omitempty"`
	Done   bool        `json:"e,omitempty"`
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
	var cur metricDataCursor
	if req.ScrollID != "" {
		if err := s.scrolls.Open(req.ScrollID, c.Company(), "metric_data", &cur); err != nil {
			return nil, err
		}
	} else {
		cur = metricDataCursor{Task: req.Task, Model: req.ModelEvents, Metric: req.Metric}
	}
	if _, err := events.Readable(ctx, &s.d.Env, c.Company(), cur.Task, cur.Model); err != nil {
		return nil, err
	}
	sel := events.Selection{Task: cur.Task, Type: events.Scalar, Metrics: []store.MetricFilter{{Metric: cur.Metric}}, Desc: true}
	if req.ScrollID == "" {
		n, err := s.reader.Count(ctx, sel, maxTotal)
		if err != nil {
			return nil, err
		}
		cur.Total = n
	}
	resp := &scalarMetricDataResponse{Events: []json.RawMessage{}, Total: cur.Total}
	if !cur.Done {
		evs, last, err := s.reader.Events(ctx, sel, cur.Pos, 500)
		if err != nil {
			return nil, err
		}
		for _, e := range evs {
			resp.Events = append(resp.Events, e)
		}
		cur.Pos, cur.Done = last, len(evs) < 500
	}
	resp.Returned = len(resp.Events)
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
		return apierr.Validation("metric.metric", "field is required")
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

// rawCursor is the state of scalar_metrics_iter_raw scroll ids.
type rawCursor struct {
	Task   string             `json:"t"`
	Model  bool               `json:"m,omitempty"`
	Metric store.MetricFilter `json:"f"`
	Key    string             `json:"k"`
	Batch  int                `json:"n"`
	Total  *int               `json:"c,omitempty"`
	Pos    *events.Pos        `json:"at,omitempty"`
	Done   bool               `json:"e,omitempty"`
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
	var cur rawCursor
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
		cur = rawCursor{Task: req.Task, Model: req.ModelEvents, Metric: store.MetricFilter{Metric: req.Metric.Metric, Variants: req.Metric.Variants},
			Key: key, Batch: req.BatchSize}
	}
	cur.Batch = batchSize(cur.Batch, 10000, maxRawBatch)
	if _, err := events.Readable(ctx, &s.d.Env, c.Company(), cur.Task, cur.Model); err != nil {
		return nil, err
	}
	sel := events.Selection{Task: cur.Task, Type: events.Scalar, Metrics: []store.MetricFilter{cur.Metric}}
	if req.ScrollID == "" && req.CountTotal {
		n, err := s.reader.CountRaw(ctx, sel)
		if err != nil {
			return nil, err
		}
		cur.Total = &n
	}
	resp := &iterRawResponse{Total: cur.Total, Variants: map[string]map[string]any{}}
	if !cur.Done {
		pts, err := s.reader.Raw(ctx, sel, cur.Key != "iter", cur.Pos, cur.Batch)
		if err != nil {
			return nil, err
		}
		for name, v := range pts.Variants {
			resp.Variants[name] = map[string]any{"y": floats(v.Y), cur.Key: v.Keys}
		}
		resp.Returned = pts.Returned
		if pts.Last != nil {
			cur.Pos = pts.Last
		}
		cur.Done = pts.Returned < cur.Batch
	}
	id, err := s.scrolls.Sign(c.Company(), "iter_raw", cur)
	if err != nil {
		return nil, err
	}
	resp.ScrollID = id
	return resp, nil
}
