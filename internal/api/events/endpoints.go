// Package events serves the events.* operations: reporting scalars,
// vectors, plots, debug images and console logs, and every read the SDK
// and the web UI make of them (histograms, logs, plots and image browsing).
// The rules live in internal/events, the SQL in internal/store/events*.go.
package events

import (
	"time"

	"github.com/trove-ml/trove/internal/api"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/rpc"
)

// Register adds the events operations. Their background work (scroll
// key, rollups, purge, packing, ...) is internal/events' Jobs, run by
// internal/app.
func Register(r *rpc.Registry, d *api.Deps) {
	now := func() time.Time { return d.Now() }
	ing := d.Ingester
	if ing == nil {
		ing = &events.Ingester{DB: d.DB, Now: now, MaxPending: d.EventQueueBytes}
	}
	s := &service{d: d, ing: ing, scrolls: d.Scrolls}
	r.Add(
		rpc.Endpoint{Name: "events.add", Access: rpc.Write, Handler: s.add},
		rpc.Endpoint{Name: "events.add_batch", Access: rpc.Write, Handler: s.addBatch, LenientLines: true},
		rpc.Endpoint{Name: "events.get_task_events", Access: rpc.Read, Handler: rpc.Typed(s.getTaskEvents)},
		rpc.Endpoint{Name: "events.get_scalar_metric_data", Access: rpc.Read, Handler: rpc.Typed(s.getScalarMetricData)},
		rpc.Endpoint{Name: "events.scalar_metrics_iter_raw", MinVersion: "2.16", Access: rpc.Read, Handler: rpc.Typed(s.scalarMetricsIterRaw)},
		rpc.Endpoint{Name: "events.scalar_metrics_iter_histogram", Access: rpc.Read, Handler: rpc.Typed(s.scalarMetricsIterHistogram)},
		rpc.Endpoint{Name: "events.multi_task_scalar_metrics_iter_histogram", Access: rpc.Read, Handler: rpc.Typed(s.multiTaskScalarMetricsIterHistogram)},
		rpc.Endpoint{Name: "events.vector_metrics_iter_histogram", Access: rpc.Read, Handler: rpc.Typed(s.vectorMetricsIterHistogram)},
		rpc.Endpoint{Name: "events.get_task_metrics", Access: rpc.Read, Handler: rpc.Typed(s.getTaskMetrics)},
		rpc.Endpoint{Name: "events.get_multi_task_metrics", Access: rpc.Read, Handler: rpc.Typed(s.getMultiTaskMetrics)},
		rpc.Endpoint{Name: "events.get_scalar_metrics_and_variants", Access: rpc.Read, Handler: rpc.Typed(s.getScalarMetricsAndVariants)},
		rpc.Endpoint{Name: "events.get_vector_metrics_and_variants", Access: rpc.Read, Handler: rpc.Typed(s.getVectorMetricsAndVariants)},
		rpc.Endpoint{Name: "events.get_task_latest_scalar_values", Access: rpc.Read, Handler: rpc.Typed(s.getTaskLatestScalarValues)},
		rpc.Endpoint{Name: "events.get_task_single_value_metrics", Access: rpc.Read, Handler: rpc.Typed(s.getTaskSingleValueMetrics)},
		rpc.Endpoint{Name: "events.get_task_log", Access: rpc.Read, Handler: rpc.Typed(s.getTaskLog)},
		rpc.Endpoint{Name: "events.download_task_log", Access: rpc.Read, Handler: rpc.Typed(s.downloadTaskLog), Streaming: true},
		rpc.Endpoint{Name: "events.clear_task_log", Access: rpc.Write, Handler: rpc.Typed(s.clearTaskLog)},
		rpc.Endpoint{Name: "events.delete_for_task", Access: rpc.Write, Handler: rpc.Typed(s.deleteForTask)},
		rpc.Endpoint{Name: "events.delete_for_model", Access: rpc.Write, Handler: rpc.Typed(s.deleteForModel)},
		rpc.Endpoint{Name: "events.clear_scroll", MinVersion: "2.18", Access: rpc.Read, Handler: rpc.Typed(s.clearScroll)},
		rpc.Endpoint{Name: "events.get_task_plots", Access: rpc.Read, Handler: rpc.Typed(s.getTaskPlots)},
		rpc.Endpoint{Name: "events.get_multi_task_plots", Access: rpc.Read, Handler: rpc.Typed(s.getMultiTaskPlots)},
		rpc.Endpoint{Name: "events.plots", Access: rpc.Read, Handler: rpc.Typed(s.plots)},
		rpc.Endpoint{Name: "events.debug_images", Access: rpc.Read, Handler: rpc.Typed(s.debugImages)},
		rpc.Endpoint{Name: "events.get_plot_sample", Access: rpc.Read, Handler: rpc.Typed(s.getPlotSample)},
		rpc.Endpoint{Name: "events.next_plot_sample", Access: rpc.Read, Handler: rpc.Typed(s.nextPlotSample)},
		rpc.Endpoint{Name: "events.get_debug_image_sample", MinVersion: "2.12", Access: rpc.Read, Handler: rpc.Typed(s.getDebugImageSample)},
		rpc.Endpoint{Name: "events.next_debug_image_sample", MinVersion: "2.12", Access: rpc.Read, Handler: rpc.Typed(s.nextDebugImageSample)},
	)
}

type service struct {
	d       *api.Deps
	ing     *events.Ingester
	scrolls *events.Scrolls
}

// floats wraps values for JSON (non-finite values as NaN tokens).
func floats(vs []float64) []jsonx.Float {
	out := make([]jsonx.Float, len(vs))
	for i, v := range vs {
		out[i] = jsonx.Float(v)
	}
	return out
}
