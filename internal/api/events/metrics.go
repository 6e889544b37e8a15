package events

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/rpc"
)

type tasksRequest struct {
	Tasks       taskIDs `json:"tasks" required:"true"`
	EventType   string  `json:"event_type"`
	ModelEvents bool    `json:"model_events"`
}

func (r *tasksRequest) Validate() error {
	if len(r.Tasks) == 0 {
		return apierr.Validation("tasks", "at least one task is required")
	}
	_, err := eventTypeParam(r.EventType)
	return err
}

type taskMetrics struct {
	Task    string   `json:"task"`
	Metrics []string `json:"metrics"`
}

type taskMetricsResponse struct {
	Metrics []taskMetrics `json:"metrics"`
}

// getTaskMetrics lists each task's metric names (events with an iteration
// above the single-value one).
func (s *service) getTaskMetrics(ctx context.Context, c *rpc.Call, req *tasksRequest) (*taskMetricsResponse, error) {
	typ, err := eventTypeParam(req.EventType)
	if err != nil {
		return nil, err
	}
	names, err := events.MetricNamesOf(ctx, &s.d.Env, c.Company(), req.Tasks, req.ModelEvents, typ)
	if err != nil {
		return nil, err
	}
	out := &taskMetricsResponse{Metrics: make([]taskMetrics, len(names))}
	for i, n := range names {
		out.Metrics[i] = taskMetrics{Task: n.Task, Metrics: n.Metrics}
	}
	return out, nil
}

type metricVariantsOut struct {
	Metric   string   `json:"metric"`
	Variants []string `json:"variants"`
}

type multiTaskMetricsResponse struct {
	Metrics []metricVariantsOut `json:"metrics"`
}

// getMultiTaskMetrics lists the union of the tasks' metrics and variants.
func (s *service) getMultiTaskMetrics(ctx context.Context, c *rpc.Call, req *tasksRequest) (*multiTaskMetricsResponse, error) {
	typ, err := eventTypeParam(req.EventType)
	if err != nil {
		return nil, err
	}
	if typ == "" {
		typ = events.AnyType // seeds: "all types when absent", logs included
	}
	mvs, err := events.MetricsAndVariants(ctx, &s.d.Env, c.Company(), req.Tasks, req.ModelEvents, typ)
	if err != nil {
		return nil, err
	}
	return &multiTaskMetricsResponse{Metrics: metricVariantsToWire(mvs)}, nil
}

func metricVariantsToWire(mvs []events.MetricVariants) []metricVariantsOut {
	out := make([]metricVariantsOut, len(mvs))
	for i, mv := range mvs {
		out[i] = metricVariantsOut(mv)
	}
	return out
}

type taskRequest struct {
	Task        string `json:"task" required:"true"`
	ModelEvents bool   `json:"model_events"`
}

type scalarMetricsAndVariantsResponse struct {
	Metrics map[string][]string `json:"metrics"`
}

func (s *service) getScalarMetricsAndVariants(ctx context.Context, c *rpc.Call, req *taskRequest) (*scalarMetricsAndVariantsResponse, error) {
	mvs, err := events.MetricsAndVariants(ctx, &s.d.Env, c.Company(), []string{req.Task}, req.ModelEvents, events.Scalar)
	if err != nil {
		return nil, err
	}
	out := &scalarMetricsAndVariantsResponse{Metrics: map[string][]string{}}
	for _, mv := range mvs {
		out.Metrics[mv.Metric] = mv.Variants
	}
	return out, nil
}

type vectorMetricsAndVariantsResponse struct {
	Metrics []metricVariantsOut `json:"metrics"`
}

// getVectorMetricsAndVariants lists a task's vector metrics with their
// variants, as the seeds' list of objects.
func (s *service) getVectorMetricsAndVariants(ctx context.Context, c *rpc.Call, req *taskRequest) (*vectorMetricsAndVariantsResponse, error) {
	mvs, err := events.MetricsAndVariants(ctx, &s.d.Env, c.Company(), []string{req.Task}, req.ModelEvents, events.Vector)
	if err != nil {
		return nil, err
	}
	return &vectorMetricsAndVariantsResponse{Metrics: metricVariantsToWire(mvs)}, nil
}

type latestVariant struct {
	Name         string      `json:"name"`
	LastValue    jsonx.Float `json:"last_value"`
	Last10Value  jsonx.Float `json:"last_10_value"`
	Last100Value jsonx.Float `json:"last_100_value"`
}

type latestMetric struct {
	Name     string          `json:"name"`
	Variants []latestVariant `json:"variants"`
}

type latestScalarValuesResponse struct {
	Metrics       []latestMetric `json:"metrics"`
	LastIter      int64          `json:"last_iter"`
	Name          string         `json:"name"`
	Status        string         `json:"status"`
	LastTimestamp int64          `json:"last_timestamp"`
}

type latestScalarValuesRequest struct {
	Task string `json:"task" required:"true"`
}

// getTaskLatestScalarValues reports each series' last value, and the mean
// of its last 100 values (every value counts: seeds, "the average of the
// last 100 reported values"; the reference skips values not above zero).
func (s *service) getTaskLatestScalarValues(ctx context.Context, c *rpc.Call, req *latestScalarValuesRequest) (*latestScalarValuesResponse, error) {
	l, err := events.LatestScalarValues(ctx, &s.d.Env, c.Company(), req.Task)
	if err != nil {
		return nil, err
	}
	out := &latestScalarValuesResponse{Metrics: make([]latestMetric, len(l.Metrics)), LastIter: l.LastIter,
		Name: l.Task.Name, Status: l.Task.Status, LastTimestamp: l.LastTimestamp}
	for i, m := range l.Metrics {
		out.Metrics[i] = latestMetric{Name: m.Name, Variants: make([]latestVariant, len(m.Variants))}
		for j, v := range m.Variants {
			// last_10_value is the last value, as the reference reports it.
			out.Metrics[i].Variants[j] = latestVariant{Name: v.Name, LastValue: jsonx.Float(v.Last),
				Last10Value: jsonx.Float(v.Last), Last100Value: jsonx.Float(v.MeanLast100)}
		}
	}
	return out, nil
}

type singleValuesRequest struct {
	Tasks       taskIDs          `json:"tasks" required:"true"`
	Metrics     []metricVariants `json:"metrics"`
	ModelEvents bool             `json:"model_events"`
}

func (r *singleValuesRequest) Validate() error {
	if len(r.Tasks) == 0 {
		return apierr.Validation("tasks", "at least one task is required")
	}
	return validateMetrics("metrics", r.Metrics)
}

type singleValue struct {
	Metric    string      `json:"metric"`
	Variant   string      `json:"variant"`
	Value     jsonx.Float `json:"value"`
	Timestamp int64       `json:"timestamp"`
}

type taskSingleValues struct {
	Task     string        `json:"task"`
	TaskName string        `json:"task_name"`
	Values   []singleValue `json:"values"`
}

type singleValuesResponse struct {
	Tasks []taskSingleValues `json:"tasks"`
}

// getTaskSingleValueMetrics returns the single values (report_single_value)
// of tasks; tasks without any are left out.
func (s *service) getTaskSingleValueMetrics(ctx context.Context, c *rpc.Call, req *singleValuesRequest) (*singleValuesResponse, error) {
	tasks, err := events.SingleValues(ctx, &s.d.Env, c.Company(), req.Tasks, req.ModelEvents, filters(req.Metrics))
	if err != nil {
		return nil, err
	}
	return &singleValuesResponse{Tasks: SingleValuesByTask(tasks)}, nil
}
