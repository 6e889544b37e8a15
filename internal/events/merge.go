package events

import (
	"context"
	"math"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// Reads over several tables and series (get_task_events, the scalar data
// and raw reads) merge sorted streams: each source reads its rows after a
// position in chunks, a k-way merge picks the next row. Every source is an
// index range, so a page costs about its size whatever the task's volume.

// Pos is a position in the merged order of a task's events. Phase 0 holds
// the events with an iteration, ordered by (Key, Src, K1, K2) with Key
// the iteration (or the time for time-ordered reads; descending when the
// read is); phase 1 the events without iteration, by (Src, K1, K2).
type Pos struct {
	Phase int   `json:"p"`
	Key   int64 `json:"i"`
	Src   int   `json:"s"`
	K1    int64 `json:"a"`
	K2    int64 `json:"b"`
}

// startPos is before every event of an order.
func startPos(desc bool) Pos {
	if desc {
		return Pos{Key: math.MaxInt64, Src: -1}
	}
	return Pos{Key: math.MinInt64, Src: -1}
}

// less orders positions.
func less(a, b Pos, desc bool) bool {
	if a.Phase != b.Phase {
		return a.Phase < b.Phase
	}
	if a.Phase == 0 && a.Key != b.Key {
		if desc {
			return a.Key > b.Key
		}
		return a.Key < b.Key
	}
	if a.Src != b.Src {
		return a.Src < b.Src
	}
	if a.K1 != b.K1 {
		return a.K1 < b.K1
	}
	return a.K2 < b.K2
}

// item is one rendered event at its position.
type item struct {
	pos Pos
	ev  []byte
	// value and key for raw reads
	series int64
	iter   int64
	ts     int64
	value  float64
}

// source reads the items strictly after a position, in order.
type source interface {
	next(ctx context.Context, after Pos, n int) ([]item, error)
}

// merger merges sources after a position.
type merger struct {
	srcs []source
	desc bool
	bufs [][]item
	done []bool
	last []Pos
}

func newMerger(srcs []source, after Pos, desc bool) *merger {
	m := &merger{srcs: srcs, desc: desc, bufs: make([][]item, len(srcs)), done: make([]bool, len(srcs)), last: make([]Pos, len(srcs))}
	for i := range m.last {
		m.last[i] = after
	}
	return m
}

// take returns up to n items in order.
func (m *merger) take(ctx context.Context, n int) ([]item, error) {
	chunk := min(max(n, 16), 2000)
	var out []item
	for len(out) < n {
		best := -1
		for i := range m.srcs {
			if len(m.bufs[i]) == 0 && !m.done[i] {
				items, err := m.srcs[i].next(ctx, m.last[i], chunk)
				if err != nil {
					return nil, err
				}
				if len(items) < chunk {
					m.done[i] = true
				}
				if len(items) > 0 {
					m.last[i] = items[len(items)-1].pos
				}
				m.bufs[i] = items
			}
			if len(m.bufs[i]) > 0 && (best < 0 || less(m.bufs[i][0].pos, m.bufs[best][0].pos, m.desc)) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		out = append(out, m.bufs[best][0])
		m.bufs[best] = m.bufs[best][1:]
	}
	return out, nil
}

// Source numbers: the order of types at equal iterations.
const (
	srcScalar = iota
	srcVector
	srcImage
	srcPlot
	srcLog
)

var docSrc = map[Type]int{Vector: srcVector, Image: srcImage, Plot: srcPlot}

// seriesSource reads one scalar series by iteration.
type seriesSource struct {
	es     *eventstore.Store
	q      store.Querier
	series *eventstore.Series
	desc   bool
}

func (s *seriesSource) next(ctx context.Context, after Pos, n int) ([]item, error) {
	id := s.series.ID
	var out []item
	if after.Phase == 0 {
		inclusive := after.Src < srcScalar || (after.Src == srcScalar && id > after.K1)
		pts, err := s.es.PointsByIter(ctx, s.q, id, after.Key, inclusive, s.desc, n)
		if err != nil {
			return nil, err
		}
		for i := range pts {
			out = append(out, s.item(&pts[i], Pos{Key: pts[i].Iter, Src: srcScalar, K1: id}))
		}
		if len(out) == n {
			return out, nil
		}
	}
	if after.Phase == 0 || after.Src < srcScalar || (after.Src == srcScalar && id > after.K1) {
		pts, err := s.es.PointsWithoutIter(ctx, s.q, []int64{id})
		if err != nil {
			return nil, err
		}
		for i := range pts {
			out = append(out, s.item(&pts[i], Pos{Phase: 1, Src: srcScalar, K1: id}))
		}
	}
	return out, nil
}

func (s *seriesSource) item(p *eventstore.ScalarPoint, pos Pos) item {
	return item{pos: pos, ev: RenderScalar(s.series, p), series: p.Series, iter: p.Iter, ts: p.TS, value: p.Value}
}

// docSource reads one task's documents of one type by iteration.
type docSource struct {
	es      *eventstore.Store
	q       store.Querier
	task    string
	typ     Type
	metrics []eventstore.MetricFilter
	desc    bool
}

func (s *docSource) next(ctx context.Context, after Pos, n int) ([]item, error) {
	src := docSrc[s.typ]
	dq := eventstore.DocQuery{Tasks: []string{s.task}, EType: string(s.typ), Metrics: s.metrics, Desc: s.desc, Limit: n}
	var out []item
	if after.Phase == 0 {
		dq.After, dq.AfterIter = true, after.Key
		switch {
		case after.Src < src:
			dq.AfterID = math.MinInt64
		case after.Src == src:
			dq.AfterID = after.K1
		default:
			dq.AfterID = math.MaxInt64
		}
		rows, err := s.es.Docs(ctx, s.q, dq)
		if err != nil {
			return nil, err
		}
		for i := range rows {
			it, err := s.item(&rows[i], Pos{Key: rows[i].Iter, Src: src, K1: rows[i].ID})
			if err != nil {
				return nil, err
			}
			out = append(out, it)
		}
		if len(out) == n {
			return out, nil
		}
		dq.Limit = n - len(out)
	}
	if after.Phase == 1 && after.Src > src {
		return out, nil
	}
	dq.WithoutIter, dq.Desc, dq.After, dq.AfterIter, dq.AfterID = true, false, true, NoIter, math.MinInt64
	if after.Phase == 1 && after.Src == src {
		dq.AfterID = after.K1
	}
	rows, err := s.es.Docs(ctx, s.q, dq)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		it, err := s.item(&rows[i], Pos{Phase: 1, Src: src, K1: rows[i].ID})
		if err != nil {
			return nil, err
		}
		out = append(out, it)
	}
	return out, nil
}

func (s *docSource) item(d *eventstore.DocRow, pos Pos) (item, error) {
	ev, err := RenderDoc(d)
	return item{pos: pos, ev: ev, iter: d.Iter, ts: d.TS}, err
}

// logSource reads one task's log events: those with an iteration by
// (iter, ts, id), then the others by (ts, id).
type logSource struct {
	es      *eventstore.Store
	q       store.Querier
	task    string
	metrics []eventstore.MetricFilter
	desc    bool
}

func (s *logSource) next(ctx context.Context, after Pos, n int) ([]item, error) {
	var out []item
	if after.Phase == 0 {
		lq := eventstore.LogQuery{Task: s.task, Metrics: s.metrics, WithIter: true, Desc: s.desc, Limit: n,
			After: true, AfterIter: after.Key, AfterTS: math.MinInt64, AfterID: math.MinInt64}
		if after.Src == srcLog {
			lq.AfterTS, lq.AfterID = after.K1, after.K2
		}
		rows, err := s.es.Logs(ctx, s.q, lq)
		if err != nil {
			return nil, err
		}
		for i := range rows {
			out = append(out, item{pos: Pos{Key: *rows[i].Iter, Src: srcLog, K1: rows[i].TS, K2: rows[i].ID}, ev: RenderLog(&rows[i]), ts: rows[i].TS})
		}
		if len(out) == n {
			return out, nil
		}
	}
	lq := eventstore.LogQuery{Task: s.task, Metrics: s.metrics, WithoutIter: true, Limit: n - len(out)}
	if after.Phase == 1 && after.Src == srcLog {
		lq.After, lq.AfterTS, lq.AfterID = true, after.K1, after.K2
	}
	rows, err := s.es.Logs(ctx, s.q, lq)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		out = append(out, item{pos: Pos{Phase: 1, Src: srcLog, K1: rows[i].TS, K2: rows[i].ID}, ev: RenderLog(&rows[i]), ts: rows[i].TS})
	}
	return out, nil
}

// timeSeriesSource reads one scalar series by (time, iteration), for raw
// reads keyed by timestamp.
type timeSeriesSource struct {
	es     *eventstore.Store
	q      store.Querier
	series *eventstore.Series
}

func (s *timeSeriesSource) next(ctx context.Context, after Pos, n int) ([]item, error) {
	id := s.series.ID
	var pts []eventstore.ScalarPoint
	var err error
	switch {
	case after.Src < srcScalar || id > after.K1:
		pts, err = s.es.PointsByTime(ctx, s.q, id, after.Key, math.MinInt64, true, n)
	case id == after.K1 && after.K2 < math.MaxInt64:
		pts, err = s.es.PointsByTime(ctx, s.q, id, after.Key, after.K2+1, true, n)
	default:
		pts, err = s.es.PointsByTime(ctx, s.q, id, after.Key, 0, false, n)
	}
	if err != nil {
		return nil, err
	}
	out := make([]item, len(pts))
	for i := range pts {
		p := &pts[i]
		out[i] = item{pos: Pos{Key: p.TS, Src: srcScalar, K1: id, K2: p.Iter}, series: id, iter: p.Iter, ts: p.TS, value: p.Value}
	}
	return out, nil
}
