package mlflow

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/trove-ml/trove/internal/mlflow"
)

// traces/metrics (MLflow 3's QueryTraceMetrics, what the UI's GenAI
// overview charts): the call's parameters; the rules are
// mlflow.QueryTraceMetrics.

type metricAggregationJSON struct {
	Type       json.RawMessage `json:"aggregation_type"`
	Percentile *float64        `json:"percentile_value"`
}

type traceMetricsJSON struct {
	DataPoints []mlflow.MetricDataPoint `json:"data_points"`
	Next       string                   `json:"next_page_token,omitempty"`
}

// enumName reads a protobuf enum member sent as its name or its number.
func enumName(name string, raw json.RawMessage, names []string) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if n, err := strconv.Atoi(s); err == nil && n > 0 && n < len(names) {
			return names[n], nil
		}
		return strings.ToUpper(s), nil
	}
	var n int
	if json.Unmarshal(raw, &n) != nil || n < 0 || n >= len(names) {
		return "", badType(name, "one of "+strings.Join(names[1:], ", "), raw)
	}
	return names[n], nil
}

func (s *Server) queryTraceMetrics(ctx context.Context, c *call) (any, error) {
	q := mlflow.TraceMetricsQuery{Company: c.id.CompanyID}
	var err error
	if q.ExperimentIDs, err = c.strs("experiment_ids"); err != nil {
		return nil, err
	}
	if q.View, err = enumName("view_type", c.params["view_type"], mlflow.MetricViewNames); err != nil {
		return nil, err
	}
	if q.Metric, err = c.str("metric_name"); err != nil {
		return nil, err
	}
	var aggs []metricAggregationJSON
	if err := c.list("aggregations", &aggs); err != nil {
		return nil, err
	}
	for _, a := range aggs {
		t, err := enumName("aggregation_type", a.Type, mlflow.MetricAggregationNames)
		if err != nil {
			return nil, err
		}
		q.Aggregations = append(q.Aggregations, mlflow.MetricAggregation{Type: t, Percentile: a.Percentile})
	}
	if q.Dimensions, err = c.strs("dimensions"); err != nil {
		return nil, err
	}
	if q.Filters, err = c.strs("filters"); err != nil {
		return nil, err
	}
	for name, dst := range map[string]**int64{"start_time_ms": &q.StartMs, "end_time_ms": &q.EndMs} {
		if *dst, err = c.int64p(name); err != nil {
			return nil, err
		}
	}
	interval, err := c.int64p("time_interval_seconds")
	if err != nil {
		return nil, err
	}
	if interval != nil {
		q.IntervalSeconds = *interval
	}
	if q.MaxResults, err = c.maxResults(); err != nil {
		return nil, err
	}
	if q.PageToken, err = c.str("page_token"); err != nil {
		return nil, err
	}
	points, next, err := mlflow.QueryTraceMetrics(ctx, s.env, q)
	if err != nil {
		return nil, err
	}
	if points == nil {
		points = []mlflow.MetricDataPoint{}
	}
	return traceMetricsJSON{points, next}, nil
}
