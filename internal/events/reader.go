package events

import (
	"context"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// Reader reads stored events for the read operations.
type Reader struct {
	DB *store.DB
}

// Selection picks a task's (or model's) events.
type Selection struct {
	Task string
	// Type is "" for every type.
	Type    Type
	Metrics []eventstore.MetricFilter
	// Desc orders iterations downwards.
	Desc bool
}

// Matches reports whether a metric/variant passes the metric filters.
func Matches(fs []eventstore.MetricFilter, metric, variant string) bool {
	if len(fs) == 0 {
		return true
	}
	for _, f := range fs {
		if f.Metric != metric {
			continue
		}
		if len(f.Variants) == 0 {
			return true
		}
		for _, v := range f.Variants {
			if v == variant {
				return true
			}
		}
	}
	return false
}

// series returns the task's scalar series passing the filters.
func (r *Reader) series(ctx context.Context, task string, fs []eventstore.MetricFilter) ([]eventstore.Series, error) {
	all, err := eventstore.Of(r.DB).TaskSeries(ctx, r.DB.Read(), task)
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for _, s := range all {
		if Matches(fs, s.Metric, s.Variant) {
			out = append(out, s)
		}
	}
	return out, nil
}

func (r *Reader) sources(ctx context.Context, sel Selection) ([]source, []eventstore.Series, error) {
	es, q := eventstore.Of(r.DB), r.DB.Read()
	var srcs []source
	var series []eventstore.Series
	if sel.Type == "" || sel.Type == Scalar {
		var err error
		if series, err = r.series(ctx, sel.Task, sel.Metrics); err != nil {
			return nil, nil, err
		}
		for i := range series {
			srcs = append(srcs, &seriesSource{es: es, q: q, series: &series[i], desc: sel.Desc})
		}
	}
	for _, t := range []Type{Vector, Image, Plot} {
		if sel.Type == "" || sel.Type == t {
			srcs = append(srcs, &docSource{es: es, q: q, task: sel.Task, typ: t, metrics: sel.Metrics, desc: sel.Desc})
		}
	}
	if sel.Type == "" || sel.Type == Log {
		srcs = append(srcs, &logSource{es: es, q: q, task: sel.Task, metrics: sel.Metrics, desc: sel.Desc})
	}
	return srcs, series, nil
}

// Events reads up to n of the selected events after a position (nil = from
// the start), in iteration order; events without iteration come last. It
// returns the position of the last event read.
func (r *Reader) Events(ctx context.Context, sel Selection, after *Pos, n int) ([][]byte, *Pos, error) {
	srcs, _, err := r.sources(ctx, sel)
	if err != nil {
		return nil, nil, err
	}
	from := startPos(sel.Desc)
	if after != nil {
		from = *after
	}
	items, err := newMerger(srcs, from, sel.Desc).take(ctx, n)
	if err != nil {
		return nil, nil, err
	}
	out := make([][]byte, len(items))
	for i := range items {
		out[i] = items[i].ev
	}
	if len(items) == 0 {
		return out, after, nil
	}
	last := items[len(items)-1].pos
	return out, &last, nil
}

// Count counts the selected events, up to limit.
func (r *Reader) Count(ctx context.Context, sel Selection, limit int) (int, error) {
	es, q := eventstore.Of(r.DB), r.DB.Read()
	total := 0
	if sel.Type == "" || sel.Type == Scalar {
		series, err := r.series(ctx, sel.Task, sel.Metrics)
		if err != nil {
			return 0, err
		}
		ids := make([]int64, len(series))
		for i, s := range series {
			ids[i] = s.ID
		}
		n, err := es.CountPoints(ctx, q, ids, limit)
		if err != nil {
			return 0, err
		}
		total += n
	}
	for _, t := range []Type{Vector, Image, Plot} {
		if total < limit && (sel.Type == "" || sel.Type == t) {
			n, err := es.CountDocs(ctx, q, eventstore.DocQuery{Tasks: []string{sel.Task}, EType: string(t), Metrics: sel.Metrics}, limit-total)
			if err != nil {
				return 0, err
			}
			n2, err := es.CountDocs(ctx, q, eventstore.DocQuery{Tasks: []string{sel.Task}, EType: string(t), Metrics: sel.Metrics, WithoutIter: true}, limit-total)
			if err != nil {
				return 0, err
			}
			total += n + n2
		}
	}
	if total < limit && (sel.Type == "" || sel.Type == Log) {
		n, err := es.CountLogs(ctx, q, sel.Task, sel.Metrics, limit-total)
		if err != nil {
			return 0, err
		}
		total += n
	}
	return min(total, limit), nil
}

// RawPoints are scalar points of one metric for scalar_metrics_iter_raw,
// by variant: values and keys (iterations or times).
type RawPoints struct {
	Variants map[string]*RawVariant
	Returned int
	Last     *Pos
}

// RawVariant holds one variant's points.
type RawVariant struct {
	Y    []float64
	Keys []int64
}

// Raw reads up to n points of the selected scalar series after a
// position, ordered by iteration (or by time when byTime); single values
// are included, points without iteration are not.
func (r *Reader) Raw(ctx context.Context, sel Selection, byTime bool, after *Pos, n int) (*RawPoints, error) {
	series, err := r.series(ctx, sel.Task, sel.Metrics)
	if err != nil {
		return nil, err
	}
	es, q := eventstore.Of(r.DB), r.DB.Read()
	names := map[int64]string{}
	srcs := make([]source, len(series))
	for i := range series {
		names[series[i].ID] = series[i].Variant
		if byTime {
			srcs[i] = &timeSeriesSource{es: es, q: q, series: &series[i]}
		} else {
			srcs[i] = &rawSeriesSource{seriesSource{es: es, q: q, series: &series[i]}}
		}
	}
	from := startPos(false)
	if after != nil {
		from = *after
	}
	items, err := newMerger(srcs, from, false).take(ctx, n)
	if err != nil {
		return nil, err
	}
	out := &RawPoints{Variants: map[string]*RawVariant{}, Returned: len(items)}
	for _, it := range items {
		name := names[it.series]
		v := out.Variants[name]
		if v == nil {
			v = &RawVariant{}
			out.Variants[name] = v
		}
		v.Y = append(v.Y, it.value)
		if byTime {
			v.Keys = append(v.Keys, it.ts)
		} else {
			v.Keys = append(v.Keys, it.iter)
		}
	}
	if len(items) > 0 {
		last := items[len(items)-1].pos
		out.Last = &last
	}
	return out, nil
}

// rawSeriesSource reads a series by iteration without rendering events
// and without the points that have no iteration.
type rawSeriesSource struct{ seriesSource }

func (s *rawSeriesSource) next(ctx context.Context, after Pos, n int) ([]item, error) {
	id := s.series.ID
	inclusive := after.Src < srcScalar || (after.Src == srcScalar && id > after.K1)
	pts, err := s.es.PointsByIter(ctx, s.q, id, after.Key, inclusive, false, n)
	if err != nil {
		return nil, err
	}
	out := make([]item, len(pts))
	for i := range pts {
		p := &pts[i]
		out[i] = item{pos: Pos{Key: p.Iter, Src: srcScalar, K1: id}, series: id, iter: p.Iter, ts: p.TS, value: p.Value}
	}
	return out, nil
}

// CountRaw counts the points of the selected scalar series that have an
// iteration (what Raw reads), exactly.
func (r *Reader) CountRaw(ctx context.Context, sel Selection) (int, error) {
	series, err := r.series(ctx, sel.Task, sel.Metrics)
	if err != nil {
		return 0, err
	}
	ids := make([]int64, len(series))
	for i, s := range series {
		ids[i] = s.ID
	}
	return eventstore.Of(r.DB).CountPointsWithIter(ctx, r.DB.Read(), ids)
}
