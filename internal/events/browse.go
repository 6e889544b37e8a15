package events

import (
	"context"
	"maps"
	"slices"
	"sort"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// Browsing (events.debug_images, events.plots) pages through the
// iterations of tasks' debug images or plots, newest first, keeping a
// state per call chain: the metrics and variants each task had when the
// state was made, for debug images the last iteration whose file was
// overwritten since (the SDK recycles image file names), and the range of
// iterations returned last, from which the next call moves on.

// BrowseState is the stored state of a browsing chain.
type BrowseState struct {
	Tasks []TaskBrowse `json:"tasks"`
	// SpecificVariants is set when the request named variants: then only
	// variants known to the state are shown.
	SpecificVariants bool `json:"specific,omitempty"`
}

// TaskBrowse is one task's part of a browsing state.
type TaskBrowse struct {
	Task    string         `json:"task"`
	Metrics []MetricBrowse `json:"metrics"`
	MinIter *int64         `json:"min,omitempty"`
	MaxIter *int64         `json:"max,omitempty"`
}

// MetricBrowse is one metric of a task's browsing state.
type MetricBrowse struct {
	Metric   string          `json:"metric"`
	LastTS   int64           `json:"ts"`
	Variants []VariantBrowse `json:"variants"`
}

// VariantBrowse is a variant and, for debug images, the last iteration
// whose image file was reused later (images at or below it are stale).
type VariantBrowse struct {
	Variant string `json:"variant"`
	Invalid *int64 `json:"invalid,omitempty"`
}

// Iteration is one iteration of a browsing answer with its events.
type Iteration struct {
	Iter   int64    `json:"iter"`
	Events [][]byte `json:"-"`
}

// Browser browses debug images or plots.
type Browser struct {
	DB   *store.DB
	Type Type
}

// TaskMetrics maps task ids to the requested metrics and their variants;
// an empty map asks for every metric of the task.
type TaskMetrics map[string]map[string][]string

// Init makes a fresh state for the requested task metrics.
func (b *Browser) Init(ctx context.Context, req TaskMetrics, order []string) (*BrowseState, error) {
	st := &BrowseState{}
	for _, task := range order {
		for _, vs := range req[task] {
			if len(vs) > 0 {
				st.SpecificVariants = true
			}
		}
		tb, err := b.initTask(ctx, task, req[task])
		if err != nil {
			return nil, err
		}
		st.Tasks = append(st.Tasks, *tb)
	}
	return st, nil
}

// Refresh re-reads every task's metrics (new metrics and variants become
// visible) and restarts from the newest iteration.
func (b *Browser) Refresh(ctx context.Context, st *BrowseState, req TaskMetrics) error {
	for i := range st.Tasks {
		tb, err := b.initTask(ctx, st.Tasks[i].Task, req[st.Tasks[i].Task])
		if err != nil {
			return err
		}
		st.Tasks[i] = *tb
	}
	return nil
}

func metricFilters(m map[string][]string) []eventstore.MetricFilter {
	var out []eventstore.MetricFilter
	for _, name := range slices.Sorted(maps.Keys(m)) {
		out = append(out, eventstore.MetricFilter{Metric: name, Variants: m[name]})
	}
	return out
}

func (b *Browser) initTask(ctx context.Context, task string, metrics map[string][]string) (*TaskBrowse, error) {
	es, q := eventstore.Of(b.DB), b.DB.Read()
	fs := metricFilters(metrics)
	images := b.Type == Image
	stats, err := es.DocVariantStats(ctx, q, task, string(b.Type), fs, images)
	if err != nil {
		return nil, err
	}
	invalid := map[[2]string]*int64{}
	if images {
		if invalid, err = b.staleIterations(ctx, task, fs); err != nil {
			return nil, err
		}
	}
	tb := &TaskBrowse{Task: task, Metrics: []MetricBrowse{}}
	for _, s := range stats {
		if n := len(tb.Metrics); n == 0 || tb.Metrics[n-1].Metric != s.Metric {
			tb.Metrics = append(tb.Metrics, MetricBrowse{Metric: s.Metric})
		}
		m := &tb.Metrics[len(tb.Metrics)-1]
		m.LastTS = max(m.LastTS, s.LastTS)
		m.Variants = append(m.Variants, VariantBrowse{Variant: s.Variant, Invalid: invalid[[2]string{s.Metric, s.Variant}]})
	}
	return tb, nil
}

// staleIterations finds, per variant, the url reported at the highest
// iteration; if that file was also reported earlier, every image up to
// its previous iteration has been overwritten.
func (b *Browser) staleIterations(ctx context.Context, task string, fs []eventstore.MetricFilter) (map[[2]string]*int64, error) {
	es, q := eventstore.Of(b.DB), b.DB.Read()
	urls, err := es.URLIters(ctx, q, task, fs)
	if err != nil {
		return nil, err
	}
	top := map[[2]string]eventstore.URLIter{}
	for _, u := range urls {
		k := [2]string{u.Metric, u.Variant}
		if cur, ok := top[k]; !ok || u.MaxIter > cur.MaxIter {
			top[k] = u
		}
	}
	out := map[[2]string]*int64{}
	for k, u := range top {
		if u.Uses < 2 {
			continue
		}
		it, ok, err := es.URLIterBelow(ctx, q, task, u.Metric, u.Variant, u.URL, u.MaxIter)
		if err != nil {
			return nil, err
		}
		if ok {
			out[k] = &it
		}
	}
	return out, nil
}

// Page reads each task's next iterations (at most iters) and moves the
// state on.
func (b *Browser) Page(ctx context.Context, st *BrowseState, iters int, earlier bool) ([][]Iteration, error) {
	out := make([][]Iteration, len(st.Tasks))
	for i := range st.Tasks {
		its, err := b.pageTask(ctx, &st.Tasks[i], iters, earlier, st.SpecificVariants)
		if err != nil {
			return nil, err
		}
		out[i] = its
	}
	return out, nil
}

func (b *Browser) pageTask(ctx context.Context, tb *TaskBrowse, iters int, earlier, specific bool) ([]Iteration, error) {
	if len(tb.Metrics) == 0 {
		return []Iteration{}, nil
	}
	if tb.MaxIter == nil {
		earlier = true
	}
	var bound *int64
	if earlier && tb.MinIter != nil {
		bound = tb.MinIter
	} else if !earlier {
		bound = tb.MaxIter
	}
	names := make([]string, len(tb.Metrics))
	known := map[[2]string]VariantBrowse{}
	for i, m := range tb.Metrics {
		names[i] = m.Metric
		for _, v := range m.Variants {
			known[[2]string{m.Metric, v.Variant}] = v
		}
	}
	es, q := eventstore.Of(b.DB), b.DB.Read()
	images := b.Type == Image
	list, err := es.DocIterations(ctx, q, tb.Task, string(b.Type), names, images, bound, earlier, iters)
	if err != nil || len(list) == 0 {
		return []Iteration{}, err
	}
	var fs []eventstore.MetricFilter
	for _, n := range names {
		fs = append(fs, eventstore.MetricFilter{Metric: n})
	}
	rows, err := es.Docs(ctx, q, eventstore.DocQuery{Tasks: []string{tb.Task}, EType: string(b.Type), Metrics: fs, Iters: list, HasURL: images})
	if err != nil {
		return nil, err
	}
	// one event per (iter, metric, variant): images the greatest url,
	// plots the newest
	type key struct {
		iter            int64
		metric, variant string
	}
	pick := map[key]*eventstore.DocRow{}
	for i := range rows {
		r := &rows[i]
		v, ok := known[[2]string{r.Metric, r.Variant}]
		if (!ok && specific) || (ok && v.Invalid != nil && r.Iter <= *v.Invalid) {
			continue
		}
		k := key{r.Iter, r.Metric, r.Variant}
		cur := pick[k]
		if cur == nil || (images && urlOf(r) > urlOf(cur)) || (!images && (r.TS > cur.TS || (r.TS == cur.TS && r.ID > cur.ID))) {
			pick[k] = r
		}
	}
	byIter := map[int64][]*eventstore.DocRow{}
	for k, r := range pick {
		byIter[k.iter] = append(byIter[k.iter], r)
	}
	var out []Iteration
	for it, docs := range byIter {
		sort.Slice(docs, func(i, j int) bool {
			return docs[i].Metric < docs[j].Metric || (docs[i].Metric == docs[j].Metric && docs[i].Variant < docs[j].Variant)
		})
		evs := make([][]byte, len(docs))
		for i, d := range docs {
			if evs[i], err = RenderDoc(d); err != nil {
				return nil, err
			}
		}
		out = append(out, Iteration{Iter: it, Events: evs})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Iter > out[j].Iter })
	if len(out) > 0 {
		hi, lo := out[0].Iter, out[len(out)-1].Iter
		tb.MaxIter, tb.MinIter = &hi, &lo
	}
	if out == nil {
		out = []Iteration{}
	}
	return out, nil
}

func urlOf(d *eventstore.DocRow) string {
	if d.URL == nil {
		return ""
	}
	return *d.URL
}
