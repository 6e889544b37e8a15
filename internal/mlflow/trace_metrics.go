package mlflow

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
)

// Trace metrics (MLflow's traces/metrics, the GenAI overview's charts):
// one metric of a view (traces, their spans, their assessments) of some
// experiments, aggregated over groups made by time buckets and
// dimensions. What each view offers is the table below; the values come
// from trace_metrics_rows.go, the groups and aggregates from
// trace_metrics_agg.go, filters from trace_metrics_filter.go.

// Views.
const (
	ViewTraces      = "TRACES"
	ViewSpans       = "SPANS"
	ViewAssessments = "ASSESSMENTS"
)

// Aggregations.
const (
	AggCount      = "COUNT"
	AggSum        = "SUM"
	AggAvg        = "AVG"
	AggPercentile = "PERCENTILE"
	AggMin        = "MIN"
	AggMax        = "MAX"
)

// MetricViewNames and MetricAggregationNames are the enums' names by
// their protobuf number (0 is unspecified), for callers that send numbers.
var (
	MetricViewNames        = []string{"", ViewTraces, ViewSpans, ViewAssessments}
	MetricAggregationNames = []string{"", AggCount, AggSum, AggAvg, AggPercentile, AggMin, AggMax}
)

// Time bucket dimension of the answer.
const TimeBucketDimension = "time_bucket"

// metricSpec is what one metric of a view may be aggregated and grouped by.
type metricSpec struct {
	aggs []string
	dims []string
}

var (
	statsAggs   = []string{AggAvg, AggMin, AggMax, AggPercentile}
	sumAggs     = []string{AggSum, AggAvg, AggMin, AggMax, AggPercentile}
	countAggs   = []string{AggCount}
	byTraceName = []string{"trace_name"}
	byModel     = []string{"span_model_name", "span_model_provider"}
)

var metricSpecs = map[string]map[string]metricSpec{
	ViewTraces: {
		"trace_count":                 {countAggs, []string{"trace_name", "trace_status"}},
		"session_count":               {countAggs, nil},
		"latency":                     {statsAggs, byTraceName},
		"input_tokens":                {sumAggs, byTraceName},
		"output_tokens":               {sumAggs, byTraceName},
		"total_tokens":                {sumAggs, byTraceName},
		"cache_read_input_tokens":     {sumAggs, byTraceName},
		"cache_creation_input_tokens": {sumAggs, byTraceName},
	},
	ViewSpans: {
		"span_count":  {countAggs, []string{"span_name", "span_type", "span_status", "span_model_name", "span_model_provider"}},
		"latency":     {statsAggs, []string{"span_name", "span_status"}},
		"input_cost":  {sumAggs, byModel},
		"output_cost": {sumAggs, byModel},
		"total_cost":  {sumAggs, byModel},
	},
	ViewAssessments: {
		"assessment_count": {countAggs, []string{"assessment_name", "assessment_value"}},
		"assessment_value": {statsAggs, []string{"assessment_name"}},
	},
}

// MetricAggregation is one aggregation asked for; Percentile (0-100) only
// with PERCENTILE.
type MetricAggregation struct {
	Type       string
	Percentile *float64
}

// TraceMetricsQuery is a traces/metrics call.
type TraceMetricsQuery struct {
	Company       string
	ExperimentIDs []string
	View, Metric  string
	Aggregations  []MetricAggregation
	Dimensions    []string
	Filters       []string
	// IntervalSeconds > 0 groups by time buckets of that width, which
	// needs StartMs and EndMs.
	IntervalSeconds int64
	StartMs, EndMs  *int64
	MaxResults      int
	PageToken       string
}

// MetricDataPoint is one group's aggregates.
type MetricDataPoint struct {
	MetricName string             `json:"metric_name"`
	Dimensions map[string]string  `json:"dimensions"`
	Values     map[string]float64 `json:"values"`
}

func sortedNames(list []string) string {
	s := slices.Clone(list)
	slices.Sort(s)
	return "['" + strings.Join(s, "', '") + "']"
}

// check validates q against the table and the bounds.
func (q *TraceMetricsQuery) check() error {
	if len(q.ExperimentIDs) == 0 {
		return missingParam("experiment_ids")
	}
	if len(q.ExperimentIDs) > MaxTraceExperiment {
		return apierr.MLflowInvalidParameter("Invalid value for parameter 'experiment_ids': at most %d experiments, got %d", MaxTraceExperiment, len(q.ExperimentIDs))
	}
	if q.View == "" {
		return missingParam("view_type")
	}
	view, ok := metricSpecs[q.View]
	if !ok {
		return apierr.MLflowInvalidParameter("Invalid value for parameter 'view_type': must be one of %s, got '%s'", sortedNames(MetricViewNames[1:]), q.View)
	}
	if q.Metric == "" {
		return missingParam("metric_name")
	}
	spec, ok := view[q.Metric]
	if !ok {
		return apierr.MLflowInvalidParameter("Invalid value for parameter 'metric_name': must be one of %s for view type %s, got '%s'",
			sortedNames(slices.Collect(maps.Keys(view))), q.View, q.Metric)
	}
	if len(q.Aggregations) == 0 {
		return missingParam("aggregations")
	}
	if len(q.Aggregations) > MaxTraceMetricAggregations {
		return apierr.MLflowInvalidParameter("Invalid value for parameter 'aggregations': at most %d, got %d", MaxTraceMetricAggregations, len(q.Aggregations))
	}
	for _, a := range q.Aggregations {
		if err := checkAggregation(a, spec); err != nil {
			return err
		}
	}
	for _, d := range q.Dimensions {
		if !slices.Contains(spec.dims, d) {
			return apierr.MLflowInvalidParameter("Invalid value for parameter 'dimensions': '%s' is not a dimension of %s %s; supported: %s",
				d, q.View, q.Metric, sortedNames(spec.dims))
		}
	}
	if len(q.Filters) > MaxFilterTerms {
		return apierr.MLflowInvalidParameter("Invalid value for parameter 'filters': at most %d filters, got %d", MaxFilterTerms, len(q.Filters))
	}
	if q.IntervalSeconds < 0 || q.IntervalSeconds > MaxTraceMetricInterval {
		return apierr.MLflowInvalidParameter("Invalid value %d for parameter 'time_interval_seconds': 1 to %d", q.IntervalSeconds, MaxTraceMetricInterval)
	}
	if q.IntervalSeconds > 0 && (q.StartMs == nil || q.EndMs == nil) {
		return apierr.MLflowInvalidParameter("start_time_ms and end_time_ms are required if time_interval_seconds is set")
	}
	if q.StartMs != nil && q.EndMs != nil && *q.StartMs > *q.EndMs {
		return apierr.MLflowInvalidParameter("Invalid value for parameter 'start_time_ms': it is after end_time_ms")
	}
	return nil
}

func checkAggregation(a MetricAggregation, spec metricSpec) error {
	if a.Type == "" {
		return missingParam("aggregations.aggregation_type")
	}
	if !slices.Contains(MetricAggregationNames[1:], a.Type) {
		return apierr.MLflowInvalidParameter("Invalid value for parameter 'aggregation_type': must be one of %s, got '%s'", sortedNames(MetricAggregationNames[1:]), a.Type)
	}
	if !slices.Contains(spec.aggs, a.Type) {
		return apierr.MLflowInvalidParameter("Invalid value for parameter 'aggregation_type': '%s' is not offered for this metric; supported: %s", a.Type, sortedNames(spec.aggs))
	}
	if a.Type == AggPercentile {
		if a.Percentile == nil {
			return apierr.MLflowInvalidParameter("Missing value for parameter 'percentile_value': required for PERCENTILE aggregation")
		}
		if p := *a.Percentile; !(p >= 0 && p <= 100) {
			return apierr.MLflowInvalidParameter("Invalid value %v for parameter 'percentile_value': must be between 0 and 100", p)
		}
	} else if a.Percentile != nil {
		return apierr.MLflowInvalidParameter("Invalid value for parameter 'percentile_value': only allowed for PERCENTILE aggregation, got %s", a.Type)
	}
	return nil
}

// QueryTraceMetrics answers a page of q's data points (ordered by time
// bucket, then dimensions) and the next page's token ("" on the last).
// It reads the newest MaxTraceScan traces of the experiments in the time
// range, and at most MaxTraceMetricSpans spans or
// MaxTraceMetricAssessments assessments of them.
func QueryTraceMetrics(ctx context.Context, env *domain.Env, q TraceMetricsQuery) ([]MetricDataPoint, string, error) {
	if err := q.check(); err != nil {
		return nil, "", err
	}
	size, err := pageSize(q.MaxResults, DefTraceMetricResults, MaxTraceMetricResults, trackingWording)
	if err != nil {
		return nil, "", err
	}
	filters, err := parseMetricFilters(q.Filters, q.View)
	if err != nil {
		return nil, "", err
	}
	rows, err := metricRows(ctx, env, &q, filters)
	if err != nil {
		return nil, "", err
	}
	points := aggregate(&q, rows)
	return page(points, q.PageToken, size)
}
