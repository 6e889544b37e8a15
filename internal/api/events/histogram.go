package events

import (
	"context"
	"encoding/json"
	"math"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/rpc"
)

// maxHistogramTasks bounds multi_task_scalar_metrics_iter_histogram.
const maxHistogramTasks = 100

type histogramParams struct {
	Samples     *int             `json:"samples"`
	Key         string           `json:"key"`
	Metrics     []metricVariants `json:"metrics"`
	ModelEvents bool             `json:"model_events"`
	// Trove's additions for zoomable charts (docs/events.md): only the
	// keys in [x_min, x_max] (iterations, or epoch ms by time), sampled
	// in their own buckets; extremes adds y_min and y_max to each curve.
	XMin     *int64 `json:"x_min"`
	XMax     *int64 `json:"x_max"`
	Extremes bool   `json:"extremes"`
}

func (p *histogramParams) validate() error {
	if p.Samples != nil && (*p.Samples < 0 || *p.Samples > events.DefaultSamples) {
		return apierr.Validation("samples", "must be between 0 and %d", events.DefaultSamples)
	}
	if err := validKey(p.Key); err != nil {
		return err
	}
	if p.XMin != nil && p.XMax != nil && *p.XMin > *p.XMax {
		return apierr.Validation("x_max", "must not be below x_min (%d > %d)", *p.XMin, *p.XMax)
	}
	return validateMetrics("metrics", p.Metrics)
}

// options are the histogram options of the request.
func (p *histogramParams) options() events.HistOptions {
	o := events.HistOptions{Samples: p.samples(), Key: p.key(), Extremes: p.Extremes}
	if p.XMin != nil || p.XMax != nil {
		r := events.KeyRange{Lo: math.MinInt64, Hi: math.MaxInt64}
		if p.XMin != nil {
			r.Lo = *p.XMin
		}
		if p.XMax != nil {
			r.Hi = *p.XMax
		}
		o.Range = &r
	}
	return o
}

func (p *histogramParams) samples() int {
	if p.Samples == nil {
		return events.DefaultSamples
	}
	return *p.Samples
}

func (p *histogramParams) key() events.HistKey {
	if p.Key == "" {
		return events.KeyIter
	}
	return events.HistKey(p.Key)
}

type histogramRequest struct {
	Task string `json:"task" required:"true"`
	histogramParams
}

func (r *histogramRequest) Validate() error { return r.validate() }

// curveOut is one series of a histogram answer.
type curveOut struct {
	Name       string          `json:"name"`
	X          json.RawMessage `json:"x"`
	Y          json.RawMessage `json:"y"`
	YMin       json.RawMessage `json:"y_min,omitempty"`
	YMax       json.RawMessage `json:"y_max,omitempty"`
	XAxisLabel *string         `json:"x_axis_label,omitempty"`
}

// histogramResponse is {metric: {variant: curve}}, the reference's shape
// (the SDK reads it as is).
type histogramResponse map[string]map[string]*curveOut

func (s *service) scalarMetricsIterHistogram(ctx context.Context, c *rpc.Call, req *histogramRequest) (*rpc.Encoded, error) {
	tcs, err := events.HistogramsOf(ctx, &s.d.Env, c.Company(), []string{req.Task}, req.ModelEvents, filters(req.Metrics), req.options())
	if err != nil {
		return nil, err
	}
	out := histogramResponse{}
	for _, cv := range tcs[0].Curves {
		if out[cv.Metric] == nil {
			out[cv.Metric] = map[string]*curveOut{}
		}
		out[cv.Metric][cv.Variant] = toCurve(cv, cv.Variant, req.key(), tcs[0].Task)
	}
	enc := rpc.Encoded(out.encode())
	return &enc, nil
}

func toCurve(cv events.Curve, name string, key events.HistKey, t *events.Target) *curveOut {
	out := &curveOut{Name: name, Y: events.FloatsJSON(cv.Y)}
	if cv.Min != nil {
		out.YMin, out.YMax = events.FloatsJSON(cv.Min), events.FloatsJSON(cv.Max)
	}
	if key == events.KeyISOTime {
		xs := make([]string, len(cv.X))
		for i, x := range cv.X {
			xs[i] = time.UnixMilli(x).UTC().Format("2006-01-02T15:04:05.000Z")
		}
		out.X, _ = json.Marshal(xs)
	} else {
		out.X = events.IntsJSON(cv.X)
	}
	if lm := t.LastMetrics[events.Hash(cv.Metric)][events.Hash(cv.Variant)]; lm != nil {
		out.XAxisLabel = lm.XAxisLabel
	}
	return out
}

type multiHistogramRequest struct {
	Tasks taskIDs `json:"tasks" required:"true"`
	histogramParams
}

func (r *multiHistogramRequest) Validate() error {
	if len(r.Tasks) == 0 {
		return apierr.Validation("tasks", "at least one task is required")
	}
	if len(r.Tasks) > maxHistogramTasks {
		return apierr.Validation("tasks", "at most %d tasks are allowed", maxHistogramTasks)
	}
	return r.validate()
}

type multiHistogramResponse struct {
	Metrics map[string]map[string]map[string]*curveOut `json:"metrics"`
}

// multiTaskScalarMetricsIterHistogram compares tasks: each task is sampled
// on its own.
func (s *service) multiTaskScalarMetricsIterHistogram(ctx context.Context, c *rpc.Call, req *multiHistogramRequest) (*multiHistogramResponse, error) {
	tcs, err := events.HistogramsOf(ctx, &s.d.Env, c.Company(), req.Tasks, req.ModelEvents, filters(req.Metrics), req.options())
	if err != nil {
		return nil, err
	}
	return &multiHistogramResponse{Metrics: CurvesByTask(tcs, req.key())}, nil
}

// taskIDs accepts a list of ids or one comma-separated string.
type taskIDs []string

func (t *taskIDs) UnmarshalJSON(b []byte) error {
	var list []string
	if err := json.Unmarshal(b, &list); err == nil {
		*t = list
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return apierr.Validation("tasks", "expected a list of ids")
	}
	*t = nil
	for _, part := range splitComma(s) {
		*t = append(*t, part)
	}
	return nil
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			if p := trimSpace(s[start:i]); p != "" {
				out = append(out, p)
			}
			start = i + 1
		}
	}
	return out
}

func trimSpace(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

type vectorHistogramRequest struct {
	Task        string `json:"task" required:"true"`
	Metric      string `json:"metric" required:"true"`
	Variant     string `json:"variant" required:"true"`
	ModelEvents bool   `json:"model_events"`
}

type vectorHistogramResponse struct {
	Metric     string            `json:"metric"`
	Variant    string            `json:"variant"`
	Vectors    []json.RawMessage `json:"vectors"`
	Iterations []int64           `json:"iterations"`
	Images     []json.RawMessage `json:"images"`
}

// vectorMetricsIterHistogram returns a vector series' values per
// iteration (at most 10000 iterations, ascending).
func (s *service) vectorMetricsIterHistogram(ctx context.Context, c *rpc.Call, req *vectorHistogramRequest) (*vectorHistogramResponse, error) {
	h, err := events.VectorValues(ctx, &s.d.Env, c.Company(), req.Task, req.ModelEvents, req.Metric, req.Variant, maxTotal)
	if err != nil {
		return nil, err
	}
	return &vectorHistogramResponse{Metric: req.Metric, Variant: req.Variant, Vectors: h.Vectors, Iterations: h.Iterations, Images: h.Events}, nil
}
