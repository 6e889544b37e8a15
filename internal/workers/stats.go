package workers

import (
	"context"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// Category is a statistics category with its metrics, most frequent first.
type Category struct {
	Name    string
	Metrics []string
}

// MetricKeys lists the statistic categories and metrics stored for the
// workers (all of the company's when none are named), the categories in
// order of their total count. None at all is 400/1001.
func MetricKeys(ctx context.Context, d *domain.Env, company string, workers []string) ([]Category, error) {
	keys, err := d.DB.WorkerStatKeys(ctx, d.DB.Read(), company, workers)
	if err != nil {
		return nil, err
	}
	if len(keys) == 0 {
		return nil, apierr.WorkerStatsNotFound("no statistics for the company workers").With("workers", workers)
	}
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
	out := make([]Category, 0, len(order))
	for _, cat := range order {
		out = append(out, Category{Name: cat, Metrics: byCategory[cat]})
	}
	return out, nil
}

// Range is the time range and workers of a statistics read.
type Range struct {
	Company string
	// From and To are epoch seconds; Interval the bucket width in seconds.
	From, To float64
	Interval int
	// Workers limits the workers (empty = all of the company's).
	Workers []string
}

func (r Range) buckets() (Buckets, store.StatsRange) {
	b := NewBuckets(r.From, r.To, r.Interval)
	return b, store.StatsRange{Company: r.Company, From: b.From, To: b.To, Bucket: b.Width, Workers: r.Workers}
}

// StatItem asks for one metric with one aggregation (avg, min or max).
type StatItem struct {
	Metric, Aggregation string
}

// Aggregations are the values of one aggregation, one per bucket.
type Aggregations struct {
	Aggregation string
	Values      []float64
	// Resources are the values per resource (GPU index) when the read
	// splits by resource and the worker reported more than one.
	Resources []ResourceSeries
}

// ResourceSeries is one resource's values of an aggregation.
type ResourceSeries struct {
	Name   string
	Values []float64
}

// StatKeys is the closed set of worker statistics keys a statistics read
// may ask for (API 2.32 on).
var StatKeys = []string{"cpu_usage", "cpu_temperature", "memory_used", "memory_free", "gpu_usage", "gpu_temperature",
	"gpu_fraction", "gpu_memory_free", "gpu_memory_used", "network_tx", "network_rx", "disk_free_home", "disk_free_temp",
	"disk_read", "disk_write"}

// splitsByResource says whether a metric has per-resource series: the GPU
// ones.
func splitsByResource(metric string) bool { return strings.HasPrefix(metric, "gpu_") }

// MetricStats is one metric (and variant, when split) of a worker.
type MetricStats struct {
	Metric string
	// Variant is nil unless the read splits by variant.
	Variant *string
	Dates   []int64
	Stats   []Aggregations
}

// WorkerStats is the asked metrics of one worker.
type WorkerStats struct {
	Worker  string
	Metrics []*MetricStats
}

// Stats aggregates the asked metrics per worker (and variant) over time
// buckets; every bucket of the range is returned, 0 where a worker's
// metric has no value.
//
// With splitByResource, each aggregation of a GPU metric also carries one
// series per resource (variant) when the worker reported more than one.
func Stats(ctx context.Context, d *domain.Env, r Range, items []StatItem, splitByVariant, splitByResource bool) ([]*WorkerStats, error) {
	buckets, sr := r.buckets()
	aggs := map[string][]string{}
	var metrics []string
	for _, it := range items {
		if _, ok := aggs[it.Metric]; !ok {
			metrics = append(metrics, it.Metric)
		}
		if !slices.Contains(aggs[it.Metric], it.Aggregation) {
			aggs[it.Metric] = append(aggs[it.Metric], it.Aggregation)
		}
	}
	rows, err := d.DB.AggregateWorkerStats(ctx, d.DB.Read(), sr, metrics, splitByVariant)
	if err != nil {
		return nil, err
	}
	out := []*WorkerStats{}
	index := map[int64]int{}
	for i, at := range buckets.Starts {
		index[at] = i
	}
	var ws *WorkerStats
	var ms *MetricStats
	for _, row := range rows {
		if ws == nil || ws.Worker != row.Worker {
			ws = &WorkerStats{Worker: row.Worker, Metrics: []*MetricStats{}}
			out = append(out, ws)
			ms = nil
		}
		if ms == nil || ms.Metric != row.Metric || (splitByVariant && *ms.Variant != row.Variant) {
			ms = newMetricStats(row.Metric, buckets.Starts, aggs[row.Metric])
			if splitByVariant {
				v := row.Variant
				ms.Variant = &v
			}
			ws.Metrics = append(ws.Metrics, ms)
		}
		i, ok := index[row.At]
		if !ok {
			continue // the incomplete last bucket
		}
		for _, st := range ms.Stats {
			st.Values[i] = aggValue(&row, st.Aggregation)
		}
	}
	if splitByResource && !splitByVariant {
		if err := addResourceSeries(ctx, d, sr, out, metrics, index, len(buckets.Starts)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func aggValue(row *store.StatBucket, aggregation string) float64 {
	switch aggregation {
	case "min":
		return row.Min
	case "max":
		return row.Max
	}
	return row.Avg
}

// addResourceSeries reads the GPU metrics per variant and adds a series per
// resource to the aggregations of the workers that reported more than one.
func addResourceSeries(ctx context.Context, d *domain.Env, sr store.StatsRange, out []*WorkerStats, metrics []string, index map[int64]int, n int) error {
	var gpu []string
	for _, m := range metrics {
		if splitsByResource(m) {
			gpu = append(gpu, m)
		}
	}
	if len(gpu) == 0 {
		return nil
	}
	rows, err := d.DB.AggregateWorkerStats(ctx, d.DB.Read(), sr, gpu, true)
	if err != nil {
		return err
	}
	type key struct{ worker, metric string }
	series := map[key]map[string][]*store.StatBucket{}
	for i := range rows {
		row := &rows[i]
		k := key{row.Worker, row.Metric}
		if series[k] == nil {
			series[k] = map[string][]*store.StatBucket{}
		}
		series[k][row.Variant] = append(series[k][row.Variant], row)
	}
	for _, ws := range out {
		for _, ms := range ws.Metrics {
			byVariant := series[key{ws.Worker, ms.Metric}]
			if len(byVariant) < 2 {
				continue
			}
			names := make([]string, 0, len(byVariant))
			for v := range byVariant {
				names = append(names, v)
			}
			sort.Slice(names, func(i, j int) bool { return resourceLess(names[i], names[j]) })
			for si := range ms.Stats {
				st := &ms.Stats[si]
				for _, name := range names {
					rs := ResourceSeries{Name: name, Values: make([]float64, n)}
					for _, row := range byVariant[name] {
						if i, ok := index[row.At]; ok {
							rs.Values[i] = aggValue(row, st.Aggregation)
						}
					}
					st.Resources = append(st.Resources, rs)
				}
			}
		}
	}
	return nil
}

// resourceLess orders resource names numerically when both are numbers
// (GPU indexes), else as text.
func resourceLess(a, b string) bool {
	x, errA := strconv.Atoi(a)
	y, errB := strconv.Atoi(b)
	if errA == nil && errB == nil {
		return x < y
	}
	return a < b
}

func newMetricStats(metric string, dates []int64, aggs []string) *MetricStats {
	ms := &MetricStats{Metric: metric, Dates: dates, Stats: make([]Aggregations, len(aggs))}
	for i, a := range aggs {
		ms.Stats[i] = Aggregations{Aggregation: a, Values: make([]float64, len(dates))}
	}
	return ms
}

// Activity is a count of workers per bucket start.
type Activity struct {
	Dates  []int64
	Counts []int
}

// ActivityReport counts per time bucket the workers that reported
// statistics (total) and those that reported while running a task (active).
//
// Its buckets are those of NewActivityBuckets: a range of n intervals has n
// points wherever it starts.
func ActivityReport(ctx context.Context, d *domain.Env, r Range) (total, active Activity, err error) {
	buckets := NewActivityBuckets(r.From, r.To, r.Interval)
	sr := store.StatsRange{Company: r.Company, From: buckets.From, To: buckets.To, Bucket: buckets.Width, Workers: r.Workers}
	for _, part := range []struct {
		activeOnly bool
		out        *Activity
	}{{false, &total}, {true, &active}} {
		counts, err := d.DB.WorkerActivity(ctx, d.DB.Read(), sr, part.activeOnly)
		if err != nil {
			return Activity{}, Activity{}, err
		}
		part.out.Dates = buckets.Starts
		part.out.Counts = make([]int, len(buckets.Starts))
		for i, at := range buckets.Starts {
			part.out.Counts[i] = counts[at]
		}
	}
	return total, active, nil
}
