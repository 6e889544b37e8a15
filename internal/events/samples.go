package events

import (
	"context"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// Sample navigation (get/next_debug_image_sample, get/next_plot_sample)
// shows one debug image, or the plots of one metric at one iteration, and
// steps to the neighbouring variant, metric or iteration. The state holds
// the current position and each variant's (or metric's) valid range.

// ImageSampleState is the stored state of debug image sample navigation.
type ImageSampleState struct {
	Task                  string         `json:"task"`
	Metric                string         `json:"metric"`
	NavigateCurrentMetric bool           `json:"current"`
	Iteration             *int64         `json:"iter,omitempty"`
	Variant               string         `json:"variant,omitempty"`
	Variants              []VariantRange `json:"variants"`
}

// VariantRange is a variant's valid iterations: from the lowest latest
// iteration of its image files (earlier images were overwritten) to its
// latest iteration.
type VariantRange struct {
	Metric  string `json:"metric"`
	Variant string `json:"variant"`
	Min     int64  `json:"min"`
	Max     int64  `json:"max"`
}

// Sample is a navigation answer.
type Sample struct {
	Events   [][]byte
	Min, Max *int64
}

// Samples navigates samples of one task.
type Samples struct {
	DB *store.DB
}

// ImageRanges computes the variant ranges of a task's debug images (of
// one metric, or all when metric is "").
func (s *Samples) ImageRanges(ctx context.Context, task, metric string) ([]VariantRange, error) {
	var fs []eventstore.MetricFilter
	if metric != "" {
		fs = []eventstore.MetricFilter{{Metric: metric}}
	}
	urls, err := eventstore.Of(s.DB).URLIters(ctx, s.DB.Read(), task, fs)
	if err != nil {
		return nil, err
	}
	var out []VariantRange
	for _, u := range urls {
		n := len(out)
		if n == 0 || out[n-1].Metric != u.Metric || out[n-1].Variant != u.Variant {
			out = append(out, VariantRange{Metric: u.Metric, Variant: u.Variant, Min: u.MaxIter, Max: u.MaxIter})
			continue
		}
		out[n-1].Min = min(out[n-1].Min, u.MaxIter)
		out[n-1].Max = max(out[n-1].Max, u.MaxIter)
	}
	return out, nil
}

func (st *ImageSampleState) rangeOf(metric, variant string) *VariantRange {
	for i := range st.Variants {
		if st.Variants[i].Metric == metric && st.Variants[i].Variant == variant {
			return &st.Variants[i]
		}
	}
	return nil
}

// candidates are the variants a step may land on.
func (st *ImageSampleState) candidates() []VariantRange {
	if !st.NavigateCurrentMetric {
		return st.Variants
	}
	var out []VariantRange
	for _, v := range st.Variants {
		if v.Metric == st.Metric {
			out = append(out, v)
		}
	}
	return out
}

// GetImage finds the image of a variant at the highest iteration up to
// iteration (nil: the latest) within its valid range, and moves there.
func (s *Samples) GetImage(ctx context.Context, st *ImageSampleState, metric, variant string, iteration *int64) (*Sample, error) {
	vr := st.rangeOf(metric, variant)
	if vr == nil {
		return &Sample{}, nil
	}
	d, err := eventstore.Of(s.DB).LatestImage(ctx, s.DB.Read(), st.Task, metric, variant, vr.Min, iteration)
	if err != nil {
		return nil, err
	}
	return s.landImage(st, d)
}

// NextImage steps to the neighbouring variant in the same iteration (or,
// with nextIteration or when there is none, to the nearest other
// iteration: earlier lands on its last variant, later on its first).
func (s *Samples) NextImage(ctx context.Context, st *ImageSampleState, earlier, nextIteration bool) (*Sample, error) {
	if st.Iteration == nil {
		return &Sample{}, nil
	}
	cur := *st.Iteration
	es, q := eventstore.Of(s.DB), s.DB.Read()
	var d *eventstore.DocRow
	var err error
	if !nextIteration {
		var bounds []eventstore.VariantBound
		for _, v := range st.candidates() {
			if v.Min <= cur {
				bounds = append(bounds, eventstore.VariantBound{Metric: v.Metric, Variant: v.Variant, MinIter: v.Min})
			}
		}
		if d, err = es.ImageInIteration(ctx, q, st.Task, bounds, cur, st.Metric, st.Variant, earlier); err != nil {
			return nil, err
		}
	}
	if d == nil {
		var bounds []eventstore.VariantBound
		for _, v := range st.candidates() {
			if !earlier || v.Min < cur {
				bounds = append(bounds, eventstore.VariantBound{Metric: v.Metric, Variant: v.Variant, MinIter: v.Min})
			}
		}
		if d, err = es.ImageInOtherIteration(ctx, q, st.Task, bounds, cur, earlier); err != nil {
			return nil, err
		}
	}
	return s.landImage(st, d)
}

func (s *Samples) landImage(st *ImageSampleState, d *eventstore.DocRow) (*Sample, error) {
	if d == nil {
		return &Sample{}, nil
	}
	ev, err := RenderDoc(d)
	if err != nil {
		return nil, err
	}
	it := d.Iter
	st.Metric, st.Variant, st.Iteration = d.Metric, d.Variant, &it
	out := &Sample{Events: [][]byte{ev}}
	if vr := st.rangeOf(d.Metric, d.Variant); vr != nil {
		out.Min, out.Max = &vr.Min, &vr.Max
	}
	return out, nil
}

// PlotSampleState is the stored state of plot sample navigation.
type PlotSampleState struct {
	Task                  string        `json:"task"`
	Metric                string        `json:"metric"`
	NavigateCurrentMetric bool          `json:"current"`
	Iteration             *int64        `json:"iter,omitempty"`
	Metrics               []MetricRange `json:"metrics"`
}

// MetricRange is a plot metric's iteration range.
type MetricRange struct {
	Metric string `json:"metric"`
	Min    int64  `json:"min"`
	Max    int64  `json:"max"`
}

// maxPlotSamples bounds the plots of one sample.
const maxPlotSamples = 100

// PlotRanges computes the metric ranges of a task's plots (of one metric,
// or all when metric is "").
func (s *Samples) PlotRanges(ctx context.Context, task, metric string) ([]MetricRange, error) {
	var fs []eventstore.MetricFilter
	if metric != "" {
		fs = []eventstore.MetricFilter{{Metric: metric}}
	}
	stats, err := eventstore.Of(s.DB).DocVariantStats(ctx, s.DB.Read(), task, string(Plot), fs, false)
	if err != nil {
		return nil, err
	}
	var out []MetricRange
	for _, st := range stats {
		n := len(out)
		if n == 0 || out[n-1].Metric != st.Metric {
			out = append(out, MetricRange{Metric: st.Metric, Min: st.MinIter, Max: st.MaxIter})
			continue
		}
		out[n-1].Min = min(out[n-1].Min, st.MinIter)
		out[n-1].Max = max(out[n-1].Max, st.MaxIter)
	}
	return out, nil
}

func (st *PlotSampleState) rangeOf(metric string) *MetricRange {
	for i := range st.Metrics {
		if st.Metrics[i].Metric == metric {
			return &st.Metrics[i]
		}
	}
	return nil
}

// GetPlots finds the plots of a metric at the highest iteration up to
// iteration (nil: the latest) and moves there.
func (s *Samples) GetPlots(ctx context.Context, st *PlotSampleState, metric string, iteration *int64) (*Sample, error) {
	mr := st.rangeOf(metric)
	if mr == nil {
		return &Sample{Events: [][]byte{}}, nil
	}
	step := eventstore.PlotStep{Metric: metric, Any: iteration == nil}
	if iteration != nil {
		step.AtOrBelow, step.Iter = true, *iteration
	}
	out, err := s.landPlots(ctx, st, step)
	if err != nil {
		return nil, err
	}
	out.Min, out.Max = &mr.Min, &mr.Max
	return out, nil
}

// NextPlots steps to the plots of the neighbouring metric (in name order)
// in the same iteration, or to the nearest other iteration; with
// navigate_current_metric only the current metric's iterations count.
func (s *Samples) NextPlots(ctx context.Context, st *PlotSampleState, earlier, nextIteration bool) (*Sample, error) {
	if st.Iteration == nil {
		return &Sample{Events: [][]byte{}}, nil
	}
	step := eventstore.PlotStep{Iter: *st.Iteration, Earlier: earlier}
	switch {
	case st.NavigateCurrentMetric:
		step.Metric = st.Metric
	case !nextIteration:
		step.SameIteration, step.FromMetric = true, st.Metric
	}
	return s.landPlots(ctx, st, step)
}

func (s *Samples) landPlots(ctx context.Context, st *PlotSampleState, step eventstore.PlotStep) (*Sample, error) {
	es, q := eventstore.Of(s.DB), s.DB.Read()
	it, metric, ok, err := es.PlotPosition(ctx, q, st.Task, step)
	if err != nil || !ok {
		return &Sample{Events: [][]byte{}}, err
	}
	rows, err := es.DocsOf(ctx, q, st.Task, string(Plot), metric, it, maxPlotSamples)
	if err != nil {
		return nil, err
	}
	out := &Sample{Events: make([][]byte, len(rows))}
	for i := range rows {
		if out.Events[i], err = RenderDoc(&rows[i]); err != nil {
			return nil, err
		}
	}
	st.Metric, st.Iteration = metric, &it
	if mr := st.rangeOf(metric); mr != nil {
		out.Min, out.Max = &mr.Min, &mr.Max
	}
	return out, nil
}
