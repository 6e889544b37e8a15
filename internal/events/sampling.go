package events

import (
	"context"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
)

// The sample reads (one debug image or one metric's plots at an
// iteration, then steps from it) keep their state on the server under a
// scroll id, in sc.

const (
	imageSampleKind = "image_sample"
	plotSampleKind  = "plot_sample"
)

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

// rangeMetric is the metric whose ranges a sample read loads ("" = all).
func (r SampleRequest) rangeMetric() string {
	if r.CurrentMetric {
		return r.Metric
	}
	return ""
}

// mismatch reports a continued read whose state was made for another task
// or metric.
func (r SampleRequest) mismatch(task, metric string, current bool) bool {
	return task != r.Task || current != r.CurrentMetric || (r.CurrentMetric && metric != r.Metric)
}

// DebugImageSample shows a variant's debug image at an iteration of a
// readable task (or model) and returns the read's scroll id.
func DebugImageSample(ctx context.Context, d *domain.Env, sc *Scrolls, company string, r SampleRequest) (string, *Sample, error) {
	if _, err := Readable(ctx, d, company, r.Task, r.Model); err != nil {
		return "", nil, err
	}
	smp := &Samples{DB: d.DB}
	var st ImageSampleState
	refresh := r.Refresh
	if r.ScrollID != "" {
		if err := sc.LoadState(ctx, r.ScrollID, company, imageSampleKind, &st); err != nil {
			return "", nil, err
		}
		if r.mismatch(st.Task, st.Metric, st.NavigateCurrentMetric) {
			return "", nil, apierr.ScrollStateMismatch(r.ScrollID)
		}
	} else {
		st, refresh = ImageSampleState{Task: r.Task, Metric: r.Metric, NavigateCurrentMetric: r.CurrentMetric}, true
	}
	if refresh {
		vs, err := smp.ImageRanges(ctx, r.Task, r.rangeMetric())
		if err != nil {
			return "", nil, err
		}
		st.Variants = vs
	}
	res, err := smp.GetImage(ctx, &st, r.Metric, r.Variant, r.Iteration)
	if err != nil {
		return "", nil, err
	}
	id, err := keepState(ctx, sc, company, r.ScrollID, imageSampleKind, &st)
	return id, res, err
}

// NextDebugImage steps from the current debug image of a read.
func NextDebugImage(ctx context.Context, d *domain.Env, sc *Scrolls, company string, r NextSampleRequest) (*Sample, error) {
	if _, err := Readable(ctx, d, company, r.Task, r.Model); err != nil {
		return nil, err
	}
	var st ImageSampleState
	if err := sc.LoadState(ctx, r.ScrollID, company, imageSampleKind, &st); err != nil {
		return nil, err
	}
	if st.Task != r.Task {
		return nil, apierr.ScrollStateMismatch(r.ScrollID)
	}
	res, err := (&Samples{DB: d.DB}).NextImage(ctx, &st, r.Earlier, r.NextIteration)
	if err != nil {
		return nil, err
	}
	if len(res.Events) > 0 {
		if err := sc.SaveState(ctx, r.ScrollID, company, imageSampleKind, &st); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// PlotSample shows a metric's plots at an iteration of a readable task (or
// model) and returns the read's scroll id.
func PlotSample(ctx context.Context, d *domain.Env, sc *Scrolls, company string, r SampleRequest) (string, *Sample, error) {
	if _, err := Readable(ctx, d, company, r.Task, r.Model); err != nil {
		return "", nil, err
	}
	smp := &Samples{DB: d.DB}
	var st PlotSampleState
	refresh := r.Refresh
	if r.ScrollID != "" {
		if err := sc.LoadState(ctx, r.ScrollID, company, plotSampleKind, &st); err != nil {
			return "", nil, err
		}
		if r.mismatch(st.Task, st.Metric, st.NavigateCurrentMetric) {
			return "", nil, apierr.ScrollStateMismatch(r.ScrollID)
		}
	} else {
		st, refresh = PlotSampleState{Task: r.Task, Metric: r.Metric, NavigateCurrentMetric: r.CurrentMetric}, true
	}
	if refresh {
		ms, err := smp.PlotRanges(ctx, r.Task, r.rangeMetric())
		if err != nil {
			return "", nil, err
		}
		st.Metrics = ms
	}
	res, err := smp.GetPlots(ctx, &st, r.Metric, r.Iteration)
	if err != nil {
		return "", nil, err
	}
	id, err := keepState(ctx, sc, company, r.ScrollID, plotSampleKind, &st)
	return id, res, err
}

// NextPlotSample steps from the current plots of a read.
func NextPlotSample(ctx context.Context, d *domain.Env, sc *Scrolls, company string, r NextSampleRequest) (*Sample, error) {
	if _, err := Readable(ctx, d, company, r.Task, r.Model); err != nil {
		return nil, err
	}
	var st PlotSampleState
	if err := sc.LoadState(ctx, r.ScrollID, company, plotSampleKind, &st); err != nil {
		return nil, err
	}
	if st.Task != r.Task {
		return nil, apierr.ScrollStateMismatch(r.ScrollID)
	}
	res, err := (&Samples{DB: d.DB}).NextPlots(ctx, &st, r.Earlier, r.NextIteration)
	if err != nil {
		return nil, err
	}
	if len(res.Events) > 0 {
		if err := sc.SaveState(ctx, r.ScrollID, company, plotSampleKind, &st); err != nil {
			return nil, err
		}
	}
	return res, nil
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
	kind := "browse_" + string(r.Type)
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
