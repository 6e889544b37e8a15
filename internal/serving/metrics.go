package serving

import (
	"context"
	"math"
	"sort"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// MinChartInterval is the narrowest chart bucket in seconds (the
// reference's default); MaxChartPoints bounds the buckets of one chart, a
// wider range widening the bucket instead.
const (
	MinChartInterval = 40
	MaxChartPoints   = 10000
)

// metric is how one chart is drawn: the stored column, its title, whether
// the containers' values are added up (else averaged) and a unit factor.
type metric struct {
	column, title string
	sum           bool
	factor        float64
}

const mbToGB = 1.0 / 1024

// metrics are the charts by metric_type.
var metrics = map[string]metric{
	"requests":      {"requests_num", "Number of Requests", true, 1},
	"requests_min":  {"requests_min", "Requests per Minute", true, 1},
	"latency_ms":    {"latency_ms", "Average Latency (ms)", false, 1},
	"cpu_count":     {"cpu_num", "CPU Count", true, 1},
	"gpu_count":     {"gpu_num", "GPU Count", true, 1},
	"cpu_util":      {"cpu_usage", "Average CPU Load (%)", false, 1},
	"gpu_util":      {"gpu_usage", "Average GPU Utilization (%)", false, 1},
	"ram_total":     {"memory_total", "RAM Total (GB)", true, mbToGB},
	"ram_used":      {"memory_used", "RAM Used (GB)", true, mbToGB},
	"ram_free":      {"memory_free", "RAM Free (GB)", true, mbToGB},
	"gpu_ram_total": {"gpu_memory_total", "GPU RAM Total (GB)", true, mbToGB},
	"gpu_ram_used":  {"gpu_memory_used", "GPU RAM Used (GB)", true, mbToGB},
	"gpu_ram_free":  {"gpu_memory_free", "GPU RAM Free (GB)", true, mbToGB},
	"network_rx":    {"network_rx", "Network Throughput RX (MBps)", true, 1},
	"network_tx":    {"network_tx", "Network Throughput TX (MBps)", true, 1},
}

// MetricTypes lists the chart kinds, sorted.
func MetricTypes() []string {
	out := make([]string, 0, len(metrics))
	for k := range metrics {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ChartQuery asks for one chart of an endpoint URL.
type ChartQuery struct {
	Company, URL string
	// From and To are epoch seconds; Interval the wanted bucket in seconds.
	From, To      float64
	Interval      int64
	MetricType    string
	InstanceChart bool
}

// Series is one line of a chart: bucket starts (epoch ms) and values.
type Series struct {
	Title  string    `json:"title"`
	Dates  []int64   `json:"dates"`
	Values []float64 `json:"values"`
}

// Chart is the total of an endpoint's containers and, when asked, one
// series per container.
type Chart struct {
	ComputedInterval int64             `json:"computed_interval"`
	Total            Series            `json:"total"`
	Instances        map[string]Series `json:"instances"`
}

// MetricsHistory draws the chart. Each container is sampled per bucket
// (the request count by its highest value, others by their mean); the
// total adds the samples up, or averages them, a container without a
// value counting as 0. The request chart shows only buckets with
// reports; the others every bucket of the range. A last bucket less than
// 90% inside the range is dropped, being incomplete.
func MetricsHistory(ctx context.Context, env *domain.Env, q ChartQuery) (*Chart, error) {
	m, ok := metrics[q.MetricType]
	if !ok {
		return nil, apierr.Validation("metric_type", "unknown metric type %q", q.MetricType)
	}
	if q.From >= q.To {
		return nil, apierr.FieldsValue("from_date must be less than to_date")
	}
	interval := max(q.Interval, MinChartInterval)
	if span := int64(math.Ceil((q.To - q.From) / MaxChartPoints)); span > interval {
		interval = span
	}
	out := &Chart{ComputedInterval: interval, Total: Series{Title: m.title, Dates: []int64{}, Values: []float64{}},
		Instances: map[string]Series{}}
	r := store.ServingStatsRange{Company: q.Company, URL: q.URL, From: int64(q.From * 1000), To: int64(q.To * 1000),
		Bucket: interval * 1000}
	containers, err := env.DB.ServingStatContainers(ctx, env.DB.Read(), r)
	if err != nil || len(containers) == 0 {
		return out, err
	}
	samples, err := env.DB.AggregateServingStats(ctx, env.DB.Read(), r, m.column, q.MetricType == "requests")
	if err != nil {
		return nil, err
	}
	byBucket := map[int64]map[string]float64{}
	for _, s := range samples {
		if byBucket[s.At] == nil {
			byBucket[s.At] = map[string]float64{}
		}
		v := 0.0
		if s.Value != nil {
			v = *s.Value
		}
		byBucket[s.At][s.Container] = v
	}
	last := int64((q.To - 0.9*float64(interval)) * 1000)
	for _, at := range bucketStarts(r, byBucket, q.MetricType == "requests") {
		if at > last {
			break
		}
		vals := byBucket[at]
		out.Total.Dates = append(out.Total.Dates, at)
		out.Total.Values = append(out.Total.Values, scaled(combine(vals, m.sum), m.factor))
	}
	if q.InstanceChart {
		for _, c := range containers {
			s := Series{Title: c, Dates: out.Total.Dates, Values: make([]float64, 0, len(out.Total.Dates))}
			for _, at := range out.Total.Dates {
				s.Values = append(s.Values, scaled(byBucket[at][c], m.factor))
			}
			out.Instances[c] = s
		}
	}
	return out, nil
}

// bucketStarts are the buckets drawn, in order: those with reports, or
// every bucket from the one holding From to the one holding To.
func bucketStarts(r store.ServingStatsRange, byBucket map[int64]map[string]float64, onlyReported bool) []int64 {
	var out []int64
	if onlyReported {
		for at := range byBucket {
			out = append(out, at)
		}
		sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
		return out
	}
	for at := r.From / r.Bucket * r.Bucket; at <= r.To; at += r.Bucket {
		out = append(out, at)
	}
	return out
}

// combine adds up or averages the containers' samples of one bucket.
func combine(vals map[string]float64, sum bool) float64 {
	if len(vals) == 0 {
		return 0
	}
	t := 0.0
	for _, v := range vals {
		t += v
	}
	if sum {
		return t
	}
	return t / float64(len(vals))
}

// scaled applies the unit factor and rounds to 2 decimals.
func scaled(v, factor float64) float64 {
	return math.Round(v*factor*100) / 100
}
