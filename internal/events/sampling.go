package events

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
)

// The sample reads (one debug image or one metric's plots at an
// iteration, then steps from it) keep their state on the server under a
// scroll id, in sc.

// SampleRequest opens (or, with ScrollID, continues) a sample read.
type SampleRequest struct {
	Task, Metric string
	// Variant is the debug image's variant (plots take every variant).
	Variant string
	// Iteration is the iteration shown (nil: the latest).
	Iteration *int64
	// Refresh re-reads the iteration ranges of a continued read.
	Refresh  bool
	ScrollID string
	// CurrentMetric keeps steps within the metric.
	CurrentMetric bool
	Model         bool
}

// NextSampleRequest steps a sample read.
type NextSampleRequest struct {
	Task, ScrollID                string
	Earlier, NextIteration, Model bool
}

// keepState stores a sample state under its id, or under a new id.
func keepState(ctx context.Context, sc *Scrolls, company, id, kind string, st any) (string, error) {
	if id == "" {
		return sc.NewState(ctx, company, kind, st)
	}
	return id, sc.SaveState(ctx, id, company, kind, st)
}

// sampleKind is what differs between the image and the plot sample
// reads; S is the state kept under the scroll id.
type sampleKind[S any] struct {
	name string
	// fresh is the state of a new read.
	fresh func(r SampleRequest) S
	// head is the task, metric and navigation scope a state was made for.
	head func(st *S) (task, metric string, current bool)
	// ranges loads the iteration ranges of metric ("" = all) into st.
	ranges func(ctx context.Context, smp *Samples, st *S, task, metric string) error
	get    func(ctx context.Context, smp *Samples, st *S, r SampleRequest) (*Sample, error)
	// next is a method expression of *Samples (NextImage, NextPlots).
	next func(smp *Samples, ctx context.Context, st *S, earlier, nextIteration bool) (*Sample, error)
}

var imageSamples = sampleKind[ImageSampleState]{
	name: "image_sample",
	fresh: func(r SampleRequest) ImageSampleState {
		return ImageSampleState{Task: r.Task, Metric: r.Metric, NavigateCurrentMetric: r.CurrentMetric}
	},
	head: func(st *ImageSampleState) (string, string, bool) { return st.Task, st.Metric, st.NavigateCurrentMetric },
	ranges: func(ctx context.Context, smp *Samples, st *ImageSampleState, task, metric string) (err error) {
		st.Variants, err = smp.ImageRanges(ctx, task, metric)
		return err
	},
	get: func(ctx context.Context, smp *Samples, st *ImageSampleState, r SampleRequest) (*Sample, error) {
		return smp.GetImage(ctx, st, r.Metric, r.Variant, r.Iteration)
	},
	next: (*Samples).NextImage,
}

var plotSamples = sampleKind[PlotSampleState]{
	name: "plot_sample",
	fresh: func(r SampleRequest) PlotSampleState {
		return PlotSampleState{Task: r.Task, Metric: r.Metric, NavigateCurrentMetric: r.CurrentMetric}
	},
	head: func(st *PlotSampleState) (string, string, bool) { return st.Task, st.Metric, st.NavigateCurrentMetric },
	ranges: func(ctx context.Context, smp *Samples, st *PlotSampleState, task, metric string) (err error) {
		st.Metrics, err = smp.PlotRanges(ctx, task, metric)
		return err
	},
	get: func(ctx context.Context, smp *Samples, st *PlotSampleState, r SampleRequest) (*Sample, error) {
		return smp.GetPlots(ctx, st, r.Metric, r.Iteration)
	},
	next: (*Samples).NextPlots,
}

// openSample starts or continues a sample read of a readable task (or
// model) and returns the read's scroll id. A continued read must be of the
// task, scope and (in metric scope) metric it was made for.
func openSample[S any](ctx context.Context, d *domain.Env, sc *Scrolls, company string, r SampleRequest, k sampleKind[S]) (string, *Sample, error) {
	if _, err := Readable(ctx, d, company, r.Task, r.Model); err != nil {
		return "", nil, err
	}
	smp := &Samples{DB: d.DB}
	var st S
	refresh := r.Refresh
	if r.ScrollID != "" {
		if err := sc.LoadState(ctx, r.ScrollID, company, k.name, &st); err != nil {
			return "", nil, err
		}
		task, metric, current := k.head(&st)
		if task != r.Task || current != r.CurrentMetric || (r.CurrentMetric && metric != r.Metric) {
			return "", nil, apierr.ScrollStateMismatch(r.ScrollID)
		}
	} else {
		st, refresh = k.fresh(r), true
	}
	if refresh {
		metric := ""
		if r.CurrentMetric {
			metric = r.Metric
		}
		if err := k.ranges(ctx, smp, &st, r.Task, metric); err != nil {
			return "", nil, err
		}
	}
	res, err := k.get(ctx, smp, &st, r)
	if err != nil {
		return "", nil, err
	}
	id, err := keepState(ctx, sc, company, r.ScrollID, k.name, &st)
	return id, res, err
}

// stepSample steps a sample read; the state is kept only when the step
// landed somewhere.
func stepSample[S any](ctx context.Context, d *domain.Env, sc *Scrolls, company string, r NextSampleRequest, k sampleKind[S]) (*Sample, error) {
	if _, err := Readable(ctx, d, company, r.Task, r.Model); err != nil {
		return nil, err
	}
	var st S
	if err := sc.LoadState(ctx, r.ScrollID, company, k.name, &st); err != nil {
		return nil, err
	}
	if task, _, _ := k.head(&st); task != r.Task {
		return nil, apierr.ScrollStateMismatch(r.ScrollID)
	}
	res, err := k.next(&Samples{DB: d.DB}, ctx, &st, r.Earlier, r.NextIteration)
	if err != nil {
		return nil, err
	}
	if len(res.Events) > 0 {
		if err := sc.SaveState(ctx, r.ScrollID, company, k.name, &st); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// DebugImageSample shows a variant's debug image at an iteration.
func DebugImageSample(ctx context.Context, d *domain.Env, sc *Scrolls, company string, r SampleRequest) (string, *Sample, error) {
	return openSample(ctx, d, sc, company, r, imageSamples)
}

// NextDebugImage steps from the current debug image of a read.
func NextDebugImage(ctx context.Context, d *domain.Env, sc *Scrolls, company string, r NextSampleRequest) (*Sample, error) {
	return stepSample(ctx, d, sc, company, r, imageSamples)
}

// PlotSample shows a metric's plots at an iteration.
func PlotSample(ctx context.Context, d *domain.Env, sc *Scrolls, company string, r SampleRequest) (string, *Sample, error) {
	return openSample(ctx, d, sc, company, r, plotSamples)
}

// NextPlotSample steps from the current plots of a read.
func NextPlotSample(ctx context.Context, d *domain.Env, sc *Scrolls, company string, r NextSampleRequest) (*Sample, error) {
	return stepSample(ctx, d, sc, company, r, plotSamples)
}

// BrowseRequest pages through tasks' debug images or plots by iteration.
type BrowseRequest struct {
	Type Type
	// Metrics are the metrics per task; Order the tasks in request order.
	Metrics TaskMetrics
	Order   []string
	// Iters is how many iterations a page holds.
	Iters int
	// Earlier pages towards older iterations.
	Earlier, Refresh bool
	ScrollID         string
	Model            bool
}

// Browse reads the next page of a browse read and returns its scroll id,
// the tasks in page order and each task's iterations.
func Browse(ctx context.Context, d *domain.Env, sc *Scrolls, company string, r BrowseRequest) (string, []TaskBrowse, [][]Iteration, error) {
	if _, err := ReadableMany(ctx, d, company, r.Order, r.Model); err != nil {
		return "", nil, nil, err
	}
	b := &Browser{DB: d.DB, Type: r.Type}
	// One kind for plots and debug images: as in the reference, a scroll
	// id of either read carries on in the other.
	const kind = "browse"
	var st BrowseState
	if r.ScrollID != "" {
		if err := sc.LoadState(ctx, r.ScrollID, company, kind, &st); err != nil {
			return "", nil, nil, err
		}
		if r.Refresh {
			if err := b.Refresh(ctx, &st, r.Metrics); err != nil {
				return "", nil, nil, err
			}
		}
	} else {
		fresh, err := b.Init(ctx, r.Metrics, r.Order)
		if err != nil {
			return "", nil, nil, err
		}
		st = *fresh
	}
	pages, err := b.Page(ctx, &st, r.Iters, r.Earlier)
	if err != nil {
		return "", nil, nil, err
	}
	id, err := keepState(ctx, sc, company, r.ScrollID, kind, &st)
	if err != nil {
		return "", nil, nil, err
	}
	return id, st.Tasks, pages, nil
}
