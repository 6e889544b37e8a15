package events

import (
	"cmp"
	"context"
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/trove-ml/trove/internal/store/eventstore"
)

// seriesKey names a scalar series.
type seriesKey struct{ task, metric, variant string }

// seriesBatch is a batch's points of one series, in arrival order.
type seriesBatch struct {
	key        seriesKey
	modelEvent bool
	worker     string
	points     []*Event
}

// batchRows is a batch turned into rows, scalars still to be attached to
// their series.
type batchRows struct {
	scalars []*seriesBatch
	docs    []eventstore.DocRow
	logs    []eventstore.LogRow
}

func buildRows(evs []*Event, wts int64) *batchRows {
	out := &batchRows{}
	series := map[seriesKey]*seriesBatch{}
	docIdx := map[string]int{}
	for _, e := range evs {
		switch e.Type {
		case Scalar:
			k := seriesKey{e.Task, e.Metric, e.Variant}
			sb := series[k]
			if sb == nil {
				sb = &seriesBatch{key: k, modelEvent: e.ModelEvent, worker: e.Worker}
				series[k] = sb
				out.scalars = append(out.scalars, sb)
			}
			sb.points = append(sb.points, e)
		case Log:
			row := eventstore.LogRow{Task: e.Task, TS: e.Timestamp, WTS: wts, Level: e.Level, Msg: e.Msg,
				Metric: e.Metric, Variant: e.Variant, Extra: membersObject(e.Extra)}
			wk := e.Worker
			row.Worker = &wk
			if e.HasIter() {
				it := e.Iter
				row.Iter = &it
			}
			out.logs = append(out.logs, row)
		default:
			row := docRow(e, wts)
			id := row.Task + "\x00" + row.EType + "\x00" + row.Metric + "\x00" + row.Variant + "\x00" + row.Key + "\x00" + strconv.FormatInt(row.Iter, 10)
			if i, ok := docIdx[id]; ok {
				out.docs[i] = row
				continue
			}
			docIdx[id] = len(out.docs)
			out.docs = append(out.docs, row)
		}
	}
	return out
}

// sourceURLRe finds the image URLs a plot refers to ("source": "<url>").
var sourceURLRe = regexp.MustCompile(`(?i)['"]source['"]:\s?['"]([a-z][a-z0-9+\-.]*://.*?)['"]`)

// docRow stores a plot, debug image or vector event as a document.
func docRow(e *Event, wts int64) eventstore.DocRow {
	row := eventstore.DocRow{Task: e.Task, EType: string(e.Type), Metric: e.Metric, Variant: e.Variant,
		Iter: e.Iter, Key: e.KeyText(), TS: e.Timestamp, URL: e.URL}
	w := newObj(256)
	w.Int("timestamp", e.Timestamp)
	w.Str("type", string(e.Type))
	w.Str("task", e.Task)
	if e.HasIter() {
		w.Int("iter", e.Iter)
	}
	w.Str("metric", e.Metric)
	w.Str("variant", e.Variant)
	if e.Key != nil {
		w.Str("key", *e.Key)
	}
	if e.URL != nil {
		w.Str("url", *e.URL)
	}
	if e.Vector != nil {
		w.Raw("value", e.Vector)
	}
	w.Str("worker", e.Worker)
	w.Bool("model_event", e.ModelEvent)
	w.Str("@timestamp", WriteTime(wts))
	if e.Type == Plot {
		n := 0
		if e.PlotStr != nil {
			n = utf8.RuneCountInString(*e.PlotStr)
			row.Plot, row.PlotZ = packPlot(*e.PlotStr)
			if urls := sourceURLs(*e.PlotStr); len(urls) > 0 {
				b, _ := json.Marshal(urls)
				w.Raw("source_urls", b)
			}
		}
		w.Int("plot_len", int64(n))
	}
	for _, m := range e.Extra {
		w.Raw(m.Key, m.Value)
	}
	row.Doc = w.Done()
	return row
}

func sourceURLs(plot string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range sourceURLRe.FindAllStringSubmatch(plot, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			out = append(out, m[1])
		}
	}
	return out
}

// rollInlinePoints is the smallest number of a series' points in one
// batch that ingest adds to its rollups itself. Smaller parts (a training
// loop's one point per series every few seconds) would cost one upsert per
// rollup level and point; the rollup job adds them later, many at a time,
// and histograms read the points past the mark meanwhile.
const rollInlinePoints = 16

// writeScalars attaches the batch's points to their series (created on
// first use), writes them, and keeps the rollups of a series in step when
// the batch brings enough of its points: a new point adds to its buckets,
// a replaced point swaps its value. Otherwise the points past the series'
// mark are left to the rollup job (replaced points below the mark still
// correct their buckets).
func (w *batchWriter) writeScalars(ctx context.Context, batches []*seriesBatch, wts int64) error {
	if len(batches) == 0 {
		return nil
	}
	es := eventstore.Of(w.in.DB)
	var rows []eventstore.ScalarRow
	var rollups, newBuckets []eventstore.Rollup
	total := 0
	for _, sb := range batches {
		total += len(sb.points)
	}
	// most points are new (above their series' highest iteration)
	fresh := make([]eventstore.ScalarRow, 0, total)
	known, err := w.knownSeries(ctx, batches)
	if err != nil {
		return err
	}
	var created []*eventstore.Series
	for _, sb := range batches {
		if known[sb.key] == nil {
			sr := &eventstore.Series{Task: sb.key.task, Metric: sb.key.metric, Variant: sb.key.variant,
				ModelEvent: sb.modelEvent, Worker: sb.worker, MaxIter: NoIter, LastWTS: wts, RolledThrough: SingleValueIter,
				TS0: earliest(sb.points)}
			known[sb.key] = sr
			w.points.series[sb.key] = sr
			created = append(created, sr)
		}
	}
	if err := es.CreateSeriesMany(ctx, w.q, created); err != nil {
		return err
	}
	for _, sb := range batches {
		points := sortedPoints(sb.points)
		sr := known[sb.key]
		lo, hi := points[0].Iter, points[len(points)-1].Iter
		var old map[int64]eventstore.StoredValue
		// Points above the series' highest iteration cannot replace
		// anything (the task row lock keeps concurrent batches of the
		// same task apart): they are plain inserts, left to the end of
		// the transaction.
		target := &fresh
		if lo <= sr.MaxIter {
			// the transaction's pending inserts first: they may be replaced
			if err := w.points.flushPoints(ctx, es, w.q); err != nil {
				return err
			}
			if old, err = es.ScalarValues(ctx, w.q, sr.ID, lo, min(hi, sr.MaxIter)); err != nil {
				return err
			}
			target = &rows
			w.keepReplaced(sb.key, sr, points, old)
		}
		acc := newRollupAcc(sr.ID)
		inStep := sr.RolledThrough >= sr.MaxIter && len(points) >= rollInlinePoints
		for _, e := range points {
			it := e.Iter
			row := eventstore.ScalarRow{Series: sr.ID, Iter: it, Value: e.Value, TS: e.Timestamp, WTS: wts, TS0: sr.TS0, Extra: membersObject(e.Extra)}
			if e.Worker != sr.Worker {
				wk := e.Worker
				row.Worker = &wk
			}
			*target = append(*target, row)
			if it <= SingleValueIter || (it > sr.RolledThrough && !inStep) {
				continue
			}
			if prev, replaced := old[it]; replaced {
				acc.add(it, 0, e.Value-prev.Value)
			} else {
				acc.add(it, 1, e.Value)
			}
		}
		for _, r := range acc.rows() {
			// a bucket starting past the series' highest iteration holds
			// no stored point yet: a plain insert
			if r.Bucket > sr.MaxIter {
				newBuckets = append(newBuckets, r)
			} else {
				rollups = append(rollups, r)
			}
		}
		newMax, rolled := max(sr.MaxIter, hi), sr.RolledThrough
		switch {
		case inStep:
			rolled = newMax
		case sr.MaxIter == NoIter && lo > SingleValueIter:
			// a new series has nothing below its first point to roll up
			rolled = lo - 1
		}
		below := SingleValueIter
		if sr.MaxIter == NoIter && lo > SingleValueIter {
			below = lo - 1 // a new series: nothing of it lies lower
		}
		w.points.touch(sr, eventstore.SeriesTouch{ID: sr.ID, MaxIter: newMax, RolledThrough: rolled, LastWTS: wts, Below: below})
	}
	w.points.insert(fresh)
	if err := es.UpsertScalars(ctx, w.q, rows); err != nil {
		return err
	}
	if err := es.InsertRollups(ctx, w.q, newBuckets); err != nil {
		return err
	}
	return es.AddRollups(ctx, w.q, rollups)
}

// earliest is the first event time of a new series' points: the base
// its points' times are stored from.
func earliest(evs []*Event) int64 {
	ts := evs[0].Timestamp
	for _, e := range evs[1:] {
		ts = min(ts, e.Timestamp)
	}
	return ts
}

// sortedPoints orders a series' points by iteration, keeping the last
// event of each iteration (a re-sent identity replaces the earlier one).
func sortedPoints(evs []*Event) []*Event {
	slices.SortStableFunc(evs, func(a, b *Event) int { return cmp.Compare(a.Iter, b.Iter) })
	out := evs[:0]
	for i, e := range evs {
		if i+1 < len(evs) && evs[i+1].Iter == e.Iter {
			continue
		}
		out = append(out, e)
	}
	return out
}

// knownSeries loads the stored series of the batches, one query per task
// (or model).
func (w *batchWriter) knownSeries(ctx context.Context, batches []*seriesBatch) (map[seriesKey]*eventstore.Series, error) {
	metrics := map[string]map[string]bool{}
	var tasks []string
	for _, sb := range batches {
		if metrics[sb.key.task] == nil {
			metrics[sb.key.task] = map[string]bool{}
			tasks = append(tasks, sb.key.task)
		}
		metrics[sb.key.task][sb.key.metric] = true
	}
	out := map[seriesKey]*eventstore.Series{}
	for _, task := range tasks {
		found, err := eventstore.Of(w.in.DB).SeriesOf(ctx, w.q, task, slices.Sorted(maps.Keys(metrics[task])))
		if err != nil {
			return nil, err
		}
		for k, sr := range found {
			key := seriesKey{task, k[0], k[1]}
			// a series an earlier batch of the transaction used is held
			// with its state after that batch's writes
			if held := w.points.series[key]; held != nil {
				sr = held
			}
			w.points.series[key] = sr
			out[key] = sr
		}
	}
	return out, nil
}

// rollupAcc sums a series' points per bucket of every rollup level;
// points arrive in increasing iteration, so buckets close in order.
type rollupAcc struct {
	series int64
	open   []eventstore.Rollup // current bucket per level
	done   []eventstore.Rollup
}

func newRollupAcc(series int64) *rollupAcc {
	return &rollupAcc{series: series, open: make([]eventstore.Rollup, len(RollupLevels))}
}

func (a *rollupAcc) add(iter, cnt int64, total float64) {
	for i, lvl := range RollupLevels {
		b := bucketStart(iter, lvl)
		o := &a.open[i]
		if o.Series != 0 && o.Bucket != b {
			a.flush(o)
		}
		if o.Series == 0 {
			*o = eventstore.Rollup{Series: a.series, Level: lvl, Bucket: b}
		}
		o.Cnt += cnt
		o.Total += total
	}
}

func (a *rollupAcc) flush(o *eventstore.Rollup) {
	if o.Cnt != 0 || o.Total != 0 {
		a.done = append(a.done, *o)
	}
	*o = eventstore.Rollup{}
}

func (a *rollupAcc) rows() []eventstore.Rollup {
	for i := range a.open {
		if a.open[i].Series != 0 {
			a.flush(&a.open[i])
		}
	}
	return a.done
}

// bucketStart is the first iteration of iter's bucket of 2^level.
func bucketStart(iter int64, level int) int64 { return iter >> level << level }
