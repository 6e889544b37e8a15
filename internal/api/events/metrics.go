package events

import (
	"context"
	"sort"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
)

// metricNames lists, per task, the metric/variants with events of type
// ("" = scalars, vectors, images and plots) that have an iteration above
// minIter.
func (s *service) metricNames(ctx context.Context, tasks []string, typ events.Type, minIter int64) ([]store.TaskMetricVariant, error) {
	es, q := s.d.DB.Events(), s.d.DB.Read()
	var out []store.TaskMetricVariant
	if typ == "" || typ == events.Scalar {
		series, err := es.TaskSeries(ctx, q, tasks...)
		if err != nil {
			return nil, err
		}
		for _, sr := range series {
			if sr.MaxIter > minIter {
				out = append(out, store.TaskMetricVariant{Task: sr.Task, Metric: sr.Metric, Variant: sr.Variant})
			}
		}
	}
	switch typ {
	case events.Log:
		logs, err := es.LogMetricVariants(ctx, q, tasks)
		if err != nil {
			return nil, err
		}
		out = append(out, logs...)
	case events.Scalar:
	default:
		docs, err := es.DocMetricVariants(ctx, q, tasks, string(typ), minIter, false)
		if err != nil {
			return nil, err
		}
		out = append(out, docs...)
	}
	return out, nil
}

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
	ts, err := s.readableMany(ctx, c, req.Tasks, req.ModelEvents)
	if err != nil {
		return nil, err
	}
	typ, _ := eventTypeParam(req.EventType)
	mvs, err := s.metricNames(ctx, ids(ts), typ, events.SingleValueIter)
	if err != nil {
		return nil, err
	}
	names := map[string]map[string]bool{}
	for _, mv := range mvs {
		if names[mv.Task] == nil {
			names[mv.Task] = map[string]bool{}
		}
		names[mv.Task][mv.Metric] = true
	}
	out := &taskMetricsResponse{Metrics: []taskMetrics{}}
	for _, t := range ts {
		out.Metrics = append(out.Metrics, taskMetrics{Task: t.ID, Metrics: sortedSet(names[t.ID])})
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
	ts, err := s.readableMany(ctx, c, req.Tasks, req.ModelEvents)
	if err != nil {
		return nil, err
	}
	typ, _ := eventTypeParam(req.EventType)
	mvs, err := s.metricNames(ctx, ids(ts), typ, events.NoIter)
	if err != nil {
		return nil, err
	}
	if typ == "" { // seeds: "all types when absent", logs included
		logs, err := s.d.DB.Events().LogMetricVariants(ctx, s.d.DB.Read(), ids(ts))
		if err != nil {
			return nil, err
		}
		mvs = append(mvs, logs...)
	}
	return &multiTaskMetricsResponse{Metrics: groupVariants(mvs)}, nil
}

func groupVariants(mvs []store.TaskMetricVariant) []metricVariantsOut {
	byMetric := map[string]map[string]bool{}
	for _, mv := range mvs {
		if byMetric[mv.Metric] == nil {
			byMetric[mv.Metric] = map[string]bool{}
		}
		byMetric[mv.Metric][mv.Variant] = true
	}
	out := []metricVariantsOut{}
	for _, m := range sortedSet(mapKeys(byMetric)) {
		out = append(out, metricVariantsOut{Metric: m, Variants: sortedSet(byMetric[m])})
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
	t, err := s.readable(ctx, c, req.Task, req.ModelEvents)
	if err != nil {
		return nil, err
	}
	mvs, err := s.metricNames(ctx, []string{t.ID}, events.Scalar, events.NoIter)
	if err != nil {
		return nil, err
	}
	out := &scalarMetricsAndVariantsResponse{Metrics: map[string][]string{}}
	for _, g := range groupVariants(mvs) {
		out.Metrics[g.Metric] = g.Variants
	}
	return out, nil
}

type vectorMetricsAndVariantsResponse struct {
	Metrics []metricVariantsOut `json:"metrics"`
}

// getVectorMetricsAndVariants lists a task's vector metrics with their
// variants, as the seeds' list of objects.
func (s *service) getVectorMetricsAndVariants(ctx context.Context, c *rpc.Call, req *taskRequest) (*vectorMetricsAndVariantsResponse, error) {
	t, err := s.readable(ctx, c, req.Task, req.ModelEvents)
	if err != nil {
		return nil, err
	}
	mvs, err := s.metricNames(ctx, []string{t.ID}, events.Vector, events.NoIter)
	if err != nil {
		return nil, err
	}
	return &vectorMetricsAndVariantsResponse{Metrics: groupVariants(mvs)}, nil
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
// of its last 100 values. Every value counts (seeds: "the average of the
// last 100 reported values"; the reference skips values not above zero).
func (s *service) getTaskLatestScalarValues(ctx context.Context, c *rpc.Call, req *latestScalarValuesRequest) (*latestScalarValuesResponse, error) {
	t, err := s.readable(ctx, c, req.Task, false)
	if err != nil {
		return nil, err
	}
	es, q := s.d.DB.Events(), s.d.DB.Read()
	series, err := es.TaskSeries(ctx, q, t.ID)
	if err != nil {
		return nil, err
	}
	out := &latestScalarValuesResponse{Metrics: []latestMetric{}, Name: t.Name, Status: t.Status}
	for _, sr := range series {
		vals, err := es.LastValues(ctx, q, sr.ID, false, 100)
		if err != nil {
			return nil, err
		}
		if len(vals) == 0 {
			continue
		}
		sum := 0.0
		for _, v := range vals {
			sum += v
		}
		if n := len(out.Metrics); n == 0 || out.Metrics[n-1].Name != sr.Metric {
			out.Metrics = append(out.Metrics, latestMetric{Name: sr.Metric, Variants: []latestVariant{}})
		}
		m := &out.Metrics[len(out.Metrics)-1]
		m.Variants = append(m.Variants, latestVariant{Name: sr.Variant, LastValue: jsonx.Float(vals[0]), Last10Value: jsonx.Float(vals[0]),
			Last100Value: jsonx.Float(sum / float64(len(vals)))})
		out.LastTimestamp = max(out.LastTimestamp, sr.LastWTS)
	}
	iters, err := es.MaxIters(ctx, q, []string{t.ID})
	if err != nil {
		return nil, err
	}
	out.LastIter = iters[t.ID]
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
	ts, err := s.readableMany(ctx, c, req.Tasks, req.ModelEvents)
	if err != nil {
		return nil, err
	}
	es, q := s.d.DB.Events(), s.d.DB.Read()
	fs := filters(req.Metrics)
	out := &singleValuesResponse{Tasks: []taskSingleValues{}}
	for _, t := range ts {
		series, err := es.TaskSeries(ctx, q, t.ID)
		if err != nil {
			return nil, err
		}
		byID := map[int64]*store.Series{}
		var idList []int64
		for i := range series {
			if events.Matches(fs, series[i].Metric, series[i].Variant) {
				byID[series[i].ID] = &series[i]
				idList = append(idList, series[i].ID)
			}
		}
		pts, err := es.PointsAt(ctx, q, idList, events.SingleValueIter)
		if err != nil {
			return nil, err
		}
		if len(pts) == 0 {
			continue
		}
		tv := taskSingleValues{Task: t.ID, TaskName: t.Name, Values: []singleValue{}}
		for _, p := range pts {
			sr := byID[p.Series]
			tv.Values = append(tv.Values, singleValue{Metric: sr.Metric, Variant: sr.Variant, Value: jsonx.Float(p.Value), Timestamp: p.TS})
		}
		sort.Slice(tv.Values, func(i, j int) bool {
			a, b := tv.Values[i], tv.Values[j]
			return a.Metric < b.Metric || (a.Metric == b.Metric && a.Variant < b.Variant)
		})
		out.Tasks = append(out.Tasks, tv)
	}
	return out, nil
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func mapKeys[V any](m map[string]V) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}
